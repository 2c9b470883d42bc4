import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PoolSizeKit
import PoolSizeModel
import Synchronization

/// An HTTP endpoint as the task (`--http`): each task makes one blocking request from the
/// pool's thread, as synchronous code calling a service does. Requests go through one
/// AsyncHTTPClient whose connection pool keeps up to `maximumConnections` connections to the
/// host and reuses them, so at N workers N connections are open and none is made per request.
///
/// C is the pool thread's CPU plus the client's event-loop threads' CPU during the request
/// (the socket work happens there, not on the pool thread). With one request in flight, as in
/// the low-load phase that measures W/C, that share is exact; with several, the loops' CPU
/// over the request is divided among the requests in flight. W is the rest of the wall time.
/// A status of 400 or more, a connection error or a run past the timeout is a failed task.
public final class HTTPSource: WorkloadSource, @unchecked Sendable {
    /// The request every task makes.
    public let target: HTTPTarget
    /// A request still unanswered after this long fails.
    public let timeoutSeconds: Double
    let client: HTTPClient
    let group: MultiThreadedEventLoopGroup
    let request: HTTPClient.Request
    let loopClocks: [clockid_t]
    let inFlight = Atomic<Int>(0)
    let serverHeader = Mutex<String?>(nil)
    private let closed = Mutex(false)

    /// A client for `target`, with event-loop threads `loopThreads` and room for
    /// `maximumConnections` open connections (the sweep's largest pool size). Nothing is sent yet.
    public init(target: HTTPTarget, timeoutSeconds: Double = 60, maximumConnections: Int, loopThreads: Int = 2) throws(PoolSizeError) {
        do {
            var headers = HTTPHeaders()
            for header in target.headers { headers.add(name: header.name, value: header.value) }
            request = try HTTPClient.Request(url: target.url, method: HTTPMethod(rawValue: target.method), headers: headers, body: target.body.map { .bytes($0) })
        } catch {
            throw .invalidOption(flag: "--http", message: "'\(target.url)' is not a URL the client can request (\(error)); write e.g. http://127.0.0.1:8080/")
        }
        self.target = target
        self.timeoutSeconds = timeoutSeconds
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, loopThreads))
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maximumConnections))
        configuration.timeout = .init(connect: .seconds(Int64(min(10, max(1, timeoutSeconds.rounded(.up))))))
        configuration.redirectConfiguration = .disallow
        // A refused connection is a failed task at once, not after retries up to the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        loopClocks = group.makeIterator().compactMap { loop in
            try? loop.submit { () -> clockid_t in
                var clock = clockid_t()
                pthread_getcpuclockid(pthread_self(), &clock)
                return clock
            }.wait()
        }
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

    /// Closes every connection and stops the client's threads; later tasks fail. Idempotent.
    public func shutdown() {
        let first = closed.withLock { wasClosed in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        try? client.syncShutdown()
        try? group.syncShutdownGracefully()
    }

    /// CPU time of the client's event-loop threads so far.
    func loopCPUNanoseconds() -> UInt64 {
        var total: UInt64 = 0
        for clock in loopClocks {
            var time = timespec()
            if clock_gettime(clock, &time) == 0 { total &+= UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec) }
        }
        return total
    }

    /// One request, blocking the calling thread until it is answered or fails.
    func perform() -> TaskOutcome {
        // The client's loops are gone after shutdown: a future made on them would never complete.
        if closed.withLock({ $0 }) { return TaskOutcome(failure: "\(target.display) was not sent: the client has shut down") }
        let before = inFlight.wrappingAdd(1, ordering: .relaxed).newValue
        let loops0 = loopCPUNanoseconds()
        let outcome: TaskOutcome
        do {
            let response = try client.execute(request: request, deadline: .now() + .nanoseconds(Int64(timeoutSeconds * 1e9))).wait()
            if let header = response.headers.first(name: LoadServer.headerName) {
                serverHeader.withLock { if $0 == nil { $0 = header } }
            }
            outcome = response.status.code >= 400
                ? TaskOutcome(failure: "\(target.display) answered \(response.status.code) \(response.status.reasonPhrase)")
                : TaskOutcome()
        } catch {
            outcome = TaskOutcome(failure: describe(error))
        }
        let loops1 = loopCPUNanoseconds()
        let after = inFlight.wrappingSubtract(1, ordering: .relaxed).oldValue
        let sharers = UInt64(max(1, (before + after + 1) / 2))
        var result = outcome
        result.childCPUNanoseconds = (loops1 &- loops0) / sharers
        return result
    }

    /// One line for a failed request.
    func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout:
                return "\(target.display) ran past --task-timeout \(UnitFormat.number(timeoutSeconds)) s"
            case .alreadyShutdown:
                return "\(target.display) was not sent: the client has shut down"
            default:
                break
            }
        }
        if let error = error as? IOError {
            return "\(target.display) failed: \(String(cString: strerror(error.errnoCode)).lowercased())"
        }
        let text = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown error"
        return "\(target.display) failed: \(text.prefix(200))"
    }
}

struct HTTPWorkload: Workload {
    let source: HTTPSource
    func run(task index: UInt64) { _ = source.perform() }
    func execute(task index: UInt64) -> TaskOutcome { source.perform() }
}
