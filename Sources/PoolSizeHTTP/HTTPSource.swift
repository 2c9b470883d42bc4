import CCurl
import Foundation
import PoolSizeKit
import PoolSizeModel
import Synchronization

/// An HTTP endpoint as the task (`--http`): each task makes one blocking request from the
/// pool's own thread, as synchronous code calling a service does, through libcurl's easy
/// interface. The thread blocks in the kernel while the service works, and libcurl does every
/// client step (send, poll, receive, parse) on that thread, so the trial's reading of the
/// thread's CPU clock around the task is the client's whole C, with nothing to apportion;
/// W is the rest of the request's wall time (docs/http-client.md).
///
/// Each request takes an easy handle from a free list and gives it back (`ConnectionFreeList`), and
/// a handle keeps its connection open between requests: at N workers at most N connections
/// are open and none is made per request. `shutdown()` closes them all.
///
/// A failed task: a status of 400 or more, a redirect (3xx other than 304: it is not followed),
/// a connection error, an answer cut short (inside its headers too), a certificate that does
/// not verify, or a request past the timeout.
public final class HTTPSource: WorkloadSource, Sendable {
    /// The request every task makes.
    package let target: HTTPTarget
    /// A request still unanswered after this long fails.
    public let timeoutSeconds: Double
    /// How an https:// server's certificate is checked.
    public let verification: HTTPVerification
    let handles: ConnectionFreeList<CurlEasy>
    let serverHeader = Mutex<String?>(nil)
    let serverSeen = Atomic<Bool>(false)
    /// Body bytes received over every request (read and dropped, never kept).
    let bodyBytes = Atomic<UInt64>(0)

    /// A client for `target`; nothing is connected or sent yet.
    package init(target: HTTPTarget, timeoutSeconds: Double = 60, verification: HTTPVerification = .system)
        throws(PoolSizeError)
    {
        self.target = target
        self.timeoutSeconds = timeoutSeconds
        self.verification = verification
        let request = try CurlRequest(
            target: target, timeoutSeconds: timeoutSeconds, verification: verification,
            capturedHeader: LoadServer.headerName)
        handles = ConnectionFreeList { (_: Int) throws(PoolSizeError) in try CurlEasy(request: request) }
        // A URL libcurl cannot take is an error now, not a sweep of failed tasks.
        if let probe = try handles.take() { handles.giveBack(probe) }
    }

    deinit { shutdown() }

    /// Unknown: the endpoint's W and C are measured.
    public var declaredTaskNanoseconds: UInt64? { nil }
    /// A request cannot enter the sweep's critical sections.
    public var supportsCriticalSections: Bool { false }

    /// Makes the request once per task.
    public func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload {
        HTTPWorkload(source: self)
    }

    /// The `X-Poolsize-Server` header of the first answer that had one: the behaviour of a
    /// `poolsize serve` target (threads, CPU and delay per request); nil for any other server.
    public var observedServer: String? { serverHeader.withLock { $0 } }

    /// The client's connections close when the sweep ends, not when the process does.
    public func sweepEnded() { shutdown() }

    /// Closes every connection and frees every handle (one still in use is closed as its
    /// request ends); later tasks fail. Idempotent.
    public func shutdown() {
        handles.close()
    }

    /// One request, blocking the calling thread until it is answered or fails.
    func perform() -> TaskOutcome {
        let taken: CurlEasy?
        do { taken = try handles.take() } catch {
            return TaskOutcome(failure: "\(target.display) was not sent: no libcurl handle (\(error))")
        }
        guard let easy = taken else {
            return TaskOutcome(failure: "\(target.display) was not sent: the client has shut down")
        }
        defer { handles.giveBack(easy) }
        let code = easy.perform()
        bodyBytes.wrappingAdd(easy.bodyBytes, ordering: .relaxed)
        if !serverSeen.load(ordering: .relaxed), let header = easy.capturedHeader {
            serverHeader.withLock { if $0 == nil { $0 = header } }
            serverSeen.store(true, ordering: .relaxed)
        }
        return TaskOutcome(failure: failure(code, easy))
    }
}

struct HTTPWorkload: Workload {
    let source: HTTPSource
    func run(task index: UInt64) { _ = source.perform() }
    func execute(task index: UInt64) -> TaskOutcome { source.perform() }
}
