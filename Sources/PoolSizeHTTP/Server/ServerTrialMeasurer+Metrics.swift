import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess

extension ServerTrialMeasurer {
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

    /// Why a trial whose server exited is not the pool's: how it ended and its last lines. The
    /// server is stopped first, so that all it wrote before it died is read.
    func exited(_ ended: ChildOutcome, process: ServerProcess) -> String {
        process.stop(graceSeconds: graceSeconds)
        return "the server exited during the trial (\(ended.summary)); \(process.lastLines)"
    }

    /// A trial whose server could not be started: no figures, and why.
    static func failedTrial(size: Int, reason: String) -> TrialMetrics {
        var metrics = TrialMetrics(
            windowSeconds: 0, throughputPerSecond: 0, cpuMicrosecondsPerTask: 0, waitMicrosecondsPerTask: 0,
            utilization: 0, peakConcurrency: 0, threads: 0)
        metrics.invalidReason = reason
        return metrics
    }
}
