import PoolSizeKit
import PoolSizeModel

/// What one run of `HTTPLoadDriver` measured over its window (the warm-up left out).
package struct HTTPLoadResult: Equatable, Sendable {
    /// Requests kept in flight at once (the driver's connections).
    package var connections: Int
    /// Requests answered with a 2xx status within the window: the only ones that count as
    /// throughput.
    package var requests: Int
    /// Transfers that ended within the window with another status, or without an answer (a
    /// refused connection, a timeout, an answer cut off).
    package var failures: Int
    /// The window's length in seconds: from the end of the warm-up to the driver's last look.
    package var windowSeconds: Double
    /// Successful requests a second over the window.
    package var throughputPerSecond: Double
    /// Latency of the successful requests, in microseconds, from the moment the driver handed
    /// the request to libcurl to the moment it saw the answer complete.
    package var latency: LatencyPercentiles
    /// The driver thread's CPU time over the window (CLOCK_THREAD_CPUTIME_ID), in microseconds.
    package var driverCPUMicroseconds: Double
    /// Why the first failure in the window failed (`answered 404 Not Found`), nil without one.
    package var firstFailure: String?
    /// How the window ended: at its length, or once the throughput was known (`run`'s `stop`).
    package var windowEnded: TrialRecord.WindowEnd = .planned
    /// Half-width of the throughput's 95% interval as a share of it, from the window's answers
    /// in 1 ms bins (`TrialStopRule`); the margin it was known to when the window ended early.
    package var throughputMargin: Double?

    /// The figures as measured.
    package init(
        connections: Int, requests: Int, failures: Int, windowSeconds: Double, throughputPerSecond: Double,
        latency: LatencyPercentiles, driverCPUMicroseconds: Double, firstFailure: String?
    ) {
        self.connections = connections
        self.requests = requests
        self.failures = failures
        self.windowSeconds = windowSeconds
        self.throughputPerSecond = throughputPerSecond
        self.latency = latency
        self.driverCPUMicroseconds = driverCPUMicroseconds
        self.firstFailure = firstFailure
    }

    /// The percentiles of `latencies` (ns) in µs, none above the largest: the histogram's
    /// percentiles are the top of a bucket, up to 0.1% above the values in it.
    package static func percentiles(_ latencies: [UInt64]) -> LatencyPercentiles {
        var latency = LatencyRecorder.percentiles(latencies)
        latency.p50 = min(latency.p50, latency.max)
        latency.p90 = min(latency.p90, latency.max)
        latency.p99 = min(latency.p99, latency.max)
        latency.p999 = min(latency.p999, latency.max)
        return latency
    }

    /// The driver's CPU per finished transfer (successes and failures alike, since each cost
    /// the driver the same work), in microseconds; 0 when none finished.
    package var driverCPUMicrosecondsPerRequest: Double {
        let finished = requests + failures
        return finished > 0 ? driverCPUMicroseconds / Double(finished) : 0
    }
}
