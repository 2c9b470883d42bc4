import CCurl
import CPoolSizeCurl
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An event-driven HTTP load: one thread keeps exactly `connections` requests in flight through
/// libcurl's multi interface, a closed loop in which each finished transfer at once starts the
/// next on the same easy handle. The server's pool is what a server sweep sizes, so its load
/// cannot come from a pool of blocking threads: these requests share one thread, whose CPU
/// (CLOCK_THREAD_CPUTIME_ID) is the driver's whole cost and is reported per request.
///
/// Connections: the multi handle owns the connection cache (CURLMOPT_MAXCONNECTS,
/// curl_multi_setopt(3)); a finished transfer leaves its connection there and the handle's next
/// transfer takes an idle one back, so `connections` connections stay open for the whole run
/// (unless each request is to have a connection of its own).
/// CURLMOPT_MAX_TOTAL_CONNECTIONS caps them at that, and CURLMOPT_PIPELINING off keeps one
/// request on each (no HTTP/2 multiplexing), as wrk's `-c` does.
package final class HTTPLoadDriver {
    /// The requests kept in flight at once.
    package let connections: Int
    let request: CurlRequest
    let multi: UnsafeMutableRawPointer
    let handles: [CurlEasy]
    let clocks = SystemClocks()

    /// The most connections one driver keeps: far beyond what one thread serves
    /// (`reserveDescriptors` checks the process may open that many).
    package static let connectionLimit = 10_000

    /// A driver of `connections` requests to `target` (a GET unless the target says otherwise),
    /// each failing after `timeoutSeconds`, with `connectionPerRequest` each on a connection
    /// of its own, closed after its answer (CURLOPT_FORBID_REUSE), as wrk does for a request
    /// that says `Connection: close`. Nothing is connected until `run`.
    package init(target: HTTPTarget, connections: Int, timeoutSeconds: Double = 30, connectionPerRequest: Bool = false)
        throws(PoolSizeError)
    {
        guard (1...Self.connectionLimit).contains(connections) else {
            throw .invalidParameter(
                .connections,
                message: "must be 1 to \(Self.connectionLimit) requests in flight at once, got \(connections)")
        }
        try Self.reserveDescriptors(for: connections)
        let request = try CurlRequest(
            target: target, timeoutSeconds: timeoutSeconds, verification: .system, capturedHeader: "")
        guard let multi = curl_multi_init() else {
            throw .measurementFailed("libcurl could not make a multi handle (curl_multi_init failed: out of memory?)")
        }
        let limits: [(String, CURLMoption, Int)] = [
            ("MAX_TOTAL_CONNECTIONS", CURLMOPT_MAX_TOTAL_CONNECTIONS, connections),
            ("MAX_HOST_CONNECTIONS", CURLMOPT_MAX_HOST_CONNECTIONS, connections),
            ("MAXCONNECTS", CURLMOPT_MAXCONNECTS, connections),
            ("PIPELINING", CURLMOPT_PIPELINING, 0),
        ]
        for (name, option, value) in limits {
            let code = poolsize_curl_multi_setopt_long(multi, option, value)
            guard code == CURLM_OK else {
                curl_multi_cleanup(multi)
                throw .measurementFailed(
                    "libcurl refused CURLMOPT_\(name) (\(String(cString: curl_multi_strerror(code))))")
            }
        }
        var handles: [CurlEasy] = []
        do throws(PoolSizeError) {
            for _ in 0..<connections {
                let handle = try CurlEasy(request: request)
                if connectionPerRequest { try handle.forbidReuse() }
                handles.append(handle)
            }
        } catch {
            curl_multi_cleanup(multi)
            throw error
        }
        self.connections = connections
        self.request = request
        self.multi = multi
        self.handles = handles
    }

    deinit {
        // Every handle left the multi handle at the end of `run`; closing them closes the
        // connections the multi handle's cache still holds when it is cleaned up.
        curl_multi_cleanup(multi)
        for handle in handles { handle.close() }
    }

    /// Runs the closed loop on the calling thread for `warmupNanoseconds`, then measures for
    /// `durationNanoseconds`; at the end the transfers still in flight are abandoned (their
    /// connections closed), so the call returns on time whatever the server does.
    /// - Parameters:
    ///   - checkpointNanoseconds: with `checkpoint`, how often within the window to report the
    ///     window so far (0: only when it opens).
    ///   - checkpoint: called on the driver's thread as the window opens (nothing counted yet),
    ///     every `checkpointNanoseconds` after, and as it closes, before the transfers in flight
    ///     are abandoned: what a caller reads beside the load (a server's CPU) is then read at
    ///     the same instants as the driver's tallies, the last while every connection is open
    ///     (a thread-per-connection server's threads end with their connections, and their CPU
    ///     leaves /proc with them).
    ///   - stop: when the window may end before `durationNanoseconds`: once the throughput of
    ///     its answers is known (judged every `TrialStopRule.checkNanoseconds`, or a twentieth of
    ///     the window so far); nil for a window of fixed length.
    package func run(
        warmupNanoseconds: UInt64, durationNanoseconds: UInt64, checkpointNanoseconds: UInt64 = 0,
        stop: TrialStopRule? = nil, checkpoint: (Checkpoint) -> Void = { _ in }
    ) throws(PoolSizeError) -> HTTPLoadResult {
        var loop = Loop(
            driver: self, start: clocks.wallNanoseconds(), warmup: warmupNanoseconds, duration: durationNanoseconds)
        defer { loop.removeAll() }
        let first = clocks.wallNanoseconds()
        var nextCheckpoint: UInt64? = nil
        var nextJudgement: UInt64? = nil, knownMargin: Double? = nil
        if loop.inWindow {
            checkpoint(loop.checkpoint(at: first))
            if checkpointNanoseconds > 0 { nextCheckpoint = first &+ checkpointNanoseconds }
        }
        for index in handles.indices { try loop.start(index, at: first) }
        var running: Int32 = 0
        while true {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else { throw Self.failure("curl_multi_perform", performed) }
            let now = clocks.wallNanoseconds()
            let opening = !loop.inWindow
            loop.reachWindow(at: now)
            if opening && loop.inWindow {
                checkpoint(loop.checkpoint(at: now))
                if checkpointNanoseconds > 0 { nextCheckpoint = now &+ checkpointNanoseconds }
            }
            let restarted = try loop.collect(at: now, restarting: now < loop.end)
            if let stop, loop.inWindow, now < loop.end, now >= nextJudgement ?? 0 {
                // The first pass in the window only sets the first judgement's time.
                if nextJudgement != nil {
                    let estimate = loop.estimate(at: now)
                    if stop.isKnown(estimate, elapsed: loop.elapsed(at: now)) {
                        knownMargin = estimate?.relativeHalfWidth
                        loop.close(at: now)
                    }
                }
                nextJudgement = now &+ TrialStopRule.interval(afterElapsed: loop.elapsed(at: now))
            }
            if now >= loop.end {
                // The driver's CPU is taken first: the caller's reading is not the driver's cost.
                var result = loop.result(at: now)
                if stop != nil {
                    result.windowEnded = knownMargin == nil ? .longest : .known
                    result.throughputMargin = knownMargin ?? result.throughputMargin
                }
                checkpoint(loop.checkpoint(at: now))
                return result
            }
            if let due = nextCheckpoint, now >= due {
                checkpoint(loop.checkpoint(at: now))
                // After a stall longer than the interval (a starved thread, a slow checkpoint)
                // the next one counts from now: no run of empty slices, no deadline past.
                let following = due &+ checkpointNanoseconds
                nextCheckpoint = following > now ? following : now &+ checkpointNanoseconds
            }
            let retried = try loop.retry(at: now)
            // A handle just added is started by the next curl_multi_perform, without a wait.
            if restarted || retried { continue }
            let boundary = min(
                loop.inWindow ? loop.end : loop.windowStart, loop.nextRetry ?? .max, nextCheckpoint ?? .max,
                nextJudgement ?? .max)
            let waitMilliseconds = Int32(clamping: ((boundary > now ? boundary - now : 0) + 999_999) / 1_000_000)
            let polled = curl_multi_poll(multi, nil, 0, max(1, waitMilliseconds), nil)
            guard polled == CURLM_OK else { throw Self.failure("curl_multi_poll", polled) }
        }
    }

    /// Descriptors kept free beside the connections (libcurl's own, the process's files).
    static let descriptorMargin = 64

    /// Makes room for `connections` sockets: raises the soft descriptor limit toward the hard
    /// one when it is short, and refuses a count past what the hard limit allows, since past it
    /// connections fail as if the server refused them and fewer than asked stay in flight.
    static func reserveDescriptors(for connections: Int) throws(PoolSizeError) {
        guard let limit = Platform.descriptorLimit() else { return }
        let needed = rlim_t(connections + descriptorMargin)
        guard limit.rlim_cur < needed else { return }
        if limit.rlim_max >= needed {
            var raised = limit
            raised.rlim_cur = needed
            if Platform.setDescriptorLimit(raised) { return }
        }
        throw shortfall(connections: connections, limit: limit)
    }

    /// `reserveDescriptors`' refusal without its raise, for a plan checked before it runs (a
    /// dry run): nil when the hard limit leaves room for `connections`, as the run will raise
    /// the soft one to it.
    package static func checkDescriptors(for connections: Int) throws(PoolSizeError) {
        guard let limit = Platform.descriptorLimit(), limit.rlim_max < rlim_t(connections + descriptorMargin) else {
            return
        }
        throw shortfall(connections: connections, limit: limit)
    }

    static func shortfall(connections: Int, limit: rlimit) -> PoolSizeError {
        let allowed = max(0, Int(min(limit.rlim_max, rlim_t(Int.max))) - descriptorMargin)
        return .invalidParameter(
            .connections,
            message:
                "\(connections) connections need \(connections + descriptorMargin) open files, and this process may open \(limit.rlim_max) (ulimit -n); pass at most \(allowed), or raise the limit"
        )
    }

    /// How long a connection that failed waits before it tries again.
    static let retryDelayNanoseconds: UInt64 = 1_000_000

    /// Whether the transfer `handle` finished with `code` succeeded: a whole answer with a 2xx
    /// status; anything else is a failure.
    static func succeeded(_ handle: CurlEasy, _ code: CURLcode) -> Bool {
        code == CURLE_OK && handle.headersEnded && (200..<300).contains(handle.status)
    }

    /// Why the transfer `handle` finished with `code` failed (read only for the first failure).
    static func failureText(_ handle: CurlEasy, _ code: CURLcode) -> String {
        if code != CURLE_OK {
            let text = handle.errorText.isEmpty ? String(cString: curl_easy_strerror(code)) : handle.errorText
            return "failed: \(text)"
        }
        if !handle.headersEnded { return "failed: the connection closed before the end of the answer's headers" }
        // The reason phrase and the body are the server's text: control characters become spaces.
        let reason = HTTPSource.printable(handle.reason)
        return "answered \(handle.status)" + (reason.isEmpty ? "" : " \(reason)") + handle.saying
    }

    static func failure(_ call: String, _ code: CURLMcode) -> PoolSizeError {
        .measurementFailed("libcurl's \(call) failed (\(String(cString: curl_multi_strerror(code))))")
    }
}
