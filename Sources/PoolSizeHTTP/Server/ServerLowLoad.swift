import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

/// The low-load phase of a server sweep (one request in flight, size 1): the server's W/C, per
/// slice of each round's window, C the CPU per request of the server's pool that serves the
/// requests (`ServerThreadGroups`) and W the rest of the mean latency.
struct ServerLowLoad {
    /// The server, kept between the phase's rounds.
    let lifecycle: ServerLifecycle
    /// How long one request may take before it counts as failed.
    let requestTimeoutSeconds: Double

    /// The phase's slices: W and C are taken per slice of this length at least.
    static let sliceNanoseconds: UInt64 = 50_000_000

    /// One round of the phase: one request in flight to a server of `request.size` (kept for
    /// the phase's next round), W and C per slice of the window.
    func round(_ request: TrialRequest, settings: TrialSettings, cores: Int) throws(PoolSizeError) -> TrialMetrics {
        let fresh = lifecycle.startsFresh
        let server = try lifecycle.acquire(size: request.size, keep: true)
        let driver = try HTTPLoadDriver(
            target: server.target, connections: 1, timeoutSeconds: requestTimeoutSeconds,
            connectionPerRequest: server.connectionPerRequest)
        var members: [Int32] = []
        let slices = max(1, min(40, settings.durationNanoseconds / Self.sliceNanoseconds))
        var last: (HTTPLoadDriver.Checkpoint, SessionUsage)? = nil
        var latencies: [Double] = [], cpus: [Double] = []
        var groups = ServerThreadGroups()
        // A fresh server's first requests load code and fill caches: not its steady W and C. A
        // short warm-up otherwise opens the connection first, so that a process the server
        // forks for it is in the session when its processes are listed, as the window opens.
        let result = try driver.run(
            warmupNanoseconds: fresh ? 300_000_000 : 20_000_000, durationNanoseconds: settings.durationNanoseconds,
            checkpointNanoseconds: settings.durationNanoseconds / slices
        ) { point in
            if last == nil { members = ServerProcess.processes(inSession: server.process.pid) }
            let usage = SessionUsage.read(processes: members, switches: false)
            // A slice that finished no request keeps its CPU for the next one that does.
            guard let (previous, previousUsage) = last else {
                last = (point, usage)
                return
            }
            guard point.requests > previous.requests else { return }
            last = (point, usage)
            let count = Double(point.requests - previous.requests)
            cpus.append(Double(usage.cpuNanoseconds(since: previousUsage)) / 1_000 / count)
            latencies.append(Double(point.latencySumNanoseconds - previous.latencySumNanoseconds) / 1_000 / count)
            groups.add(requests: Int(point.requests - previous.requests), before: previousUsage, after: usage)
        }
        if let ended = server.process.exitOutcome {
            lifecycle.stopHeld()
            throw .measurementFailed(
                "the server exited while one request at a time was measured (\(ended.summary)); \(server.process.lastLines)"
            )
        }
        // The phase's failure share is of requests; its tasks are slices, so the failures are
        // judged here and not handed on as a count of slices.
        let finished = result.requests + result.failures
        if result.failures > 0, Double(result.failures) > TrialValidity.maximumFailureShare * Double(finished) {
            throw .measurementFailed(
                "\(result.failures) of \(finished) requests failed with one in flight to the server at size \(request.size), before any pool size was tried: \(result.firstFailure ?? "no reason recorded"); fix the server or the URL first"
            )
        }
        // Work that left the server's session (a daemon that calls setsid) shows none of its CPU:
        // a C of 0 is no measurement, it gives no formula, and every trial would be invalid.
        if result.requests > 0, !cpus.isEmpty, cpus.allSatisfy({ $0 == 0 }) {
            lifecycle.stopHeld()
            throw .measurementFailed(Self.cpuNotSeen(requests: result.requests))
        }
        var metrics = ServerTrialFigures.metrics(
            result, size: request.size, server: SessionUsage(), cpuNanoseconds: 0, switchesBefore: SessionUsage(),
            cores: cores)
        metrics.errors = 0
        // C is the CPU of the pool that serves the requests, as the formula sizes that pool:
        // the server's other threads (an event loop, a compiler) are not held per request.
        if let pool = groups.servingPool, pool.cpuMicroseconds.count == cpus.count {
            metrics.servingPool = pool.name
            metrics.processCPUMicroseconds = cpus
            cpus = pool.cpuMicroseconds
        }
        let waits = zip(latencies, cpus).map { max(0, $0 - $1) }
        metrics.perTaskCPUMicroseconds = cpus
        metrics.perTaskWaitMicroseconds = waits
        metrics.perTaskWaitCPURatios = zip(waits, cpus).compactMap { $1 > 0 ? $0 / $1 : nil }
        if let reason = result.firstFailure { metrics.failureExamples = [reason] }
        return metrics
    }

    /// Why the sweep stops when the server's processes used no CPU while it answered.
    static func cpuNotSeen(requests: Int) -> String {
        "the server's CPU was not seen: it answered \(requests) requests with one in flight while the processes of "
            + "the session poolsize started it in used no CPU, so its work runs in processes that left that session "
            + "(a daemon that calls setsid or detaches, or a server another process starts); without C there is no "
            + "W/C, no formula and no trial the sweep could keep. Run the server in the foreground in "
            + "\(PoolSizeError.Parameter.server.mention) (no setsid, daemon mode or service manager)"
    }
}
