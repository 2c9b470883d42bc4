import PoolSizeKit
import PoolSizeModel
import PoolSizeObserve
import PoolSizeProcess

/// A server trial's figures from what was read: the driver's result or the load tool's, and
/// the server's session over the window (`SessionUsage`), the same fields however it was loaded.
enum ServerTrialFigures {
    /// A trial's figures from the driver's result and the server's usage over the window:
    /// throughput and latency the driver's, C the server's CPU per answered request, W the rest
    /// of the mean latency, threads, memory and context switches the server's at the window's end.
    /// - Parameter meanLatencyMicroseconds: the mean time a request spent at the server; nil
    ///   for the closed loop's, which Little's law gives from the connections and throughput.
    static func metrics(
        _ result: HTTPLoadResult, size: Int, server: SessionUsage, cpuNanoseconds: UInt64,
        switchesBefore: SessionUsage, cores: Int, meanLatencyMicroseconds: Double? = nil
    ) -> TrialMetrics {
        let windowSeconds = max(result.windowSeconds, 1e-9)
        let cpuPerRequest = result.requests > 0 ? Double(cpuNanoseconds) / 1_000 / Double(result.requests) : 0
        let meanLatency =
            meanLatencyMicroseconds
            ?? (result.throughputPerSecond > 0 ? Double(result.connections) / result.throughputPerSecond * 1e6 : 0)
        var metrics = TrialMetrics(
            windowSeconds: windowSeconds, throughputPerSecond: result.throughputPerSecond,
            cpuMicrosecondsPerTask: cpuPerRequest, waitMicrosecondsPerTask: max(0, meanLatency - cpuPerRequest),
            utilization: Double(cpuNanoseconds) / 1e9 / (windowSeconds * Double(max(cores, 1))),
            peakConcurrency: result.connections, threads: server.threads, latency: result.latency,
            execution: result.latency)
        metrics.tasks = Double(result.requests)
        metrics.errors = result.failures
        record(server, since: switchesBefore, into: &metrics)
        metrics.driverCPUMicrosecondsPerRequest = result.driverCPUMicrosecondsPerRequest
        if let reason = result.firstFailure { metrics.failureExamples = [reason] }
        return metrics
    }

    /// The server's threads, memory and context switches at the window's end into `metrics`, the
    /// switches counted since `before`: the same fields however the server was loaded.
    static func record(_ server: SessionUsage, since before: SessionUsage, into metrics: inout TrialMetrics) {
        metrics.threads = server.threads
        metrics.processThreads = server.threads
        metrics.maxRSSKilobytes = server.rssKilobytes
        metrics.voluntaryContextSwitches = max(0, server.voluntarySwitches - before.voluntarySwitches)
        metrics.involuntaryContextSwitches = max(0, server.involuntarySwitches - before.involuntarySwitches)
    }

    /// The server's processes over a trial's window of `windowSeconds`, as `poolsize observe`
    /// reads a pool's: those that did work (`PoolVerdict.workingProcesses`, so a supervisor
    /// that wakes now and then is not counted beside its workers), and the runtime with an interpreter lock
    /// that all of them run, recognised as observe recognises it (`KnownProgram`, from the
    /// executable and shared libraries) while they still run.
    static func serverFigures(_ after: SessionUsage, since before: SessionUsage, windowSeconds: Double)
        -> ServerFigures
    {
        var cpuSeconds: [Int32: Double] = [:]
        for (tid, now) in after.threadCPUNanoseconds {
            guard let pid = after.processOfThread[tid] else { continue }
            let earlier = before.threadCPUNanoseconds[tid] ?? 0
            // A thread started in the window is counted whole, as the trial's CPU counts it.
            cpuSeconds[pid, default: 0] += Double(now >= earlier ? now - earlier : now) / 1e9
        }
        let working = PoolVerdict.workingProcesses(cpuSeconds: cpuSeconds, over: windowSeconds)
        let programs = working.map { ProcessFacts(RawProcessTexts.read(pid: $0)).program }
        let shared = programs.first.flatMap { first in programs.allSatisfy { $0?.kind == first?.kind } ? first : nil }
        return ServerFigures(processes: working.count, interpreterLock: shared?.lockName)
    }
}
