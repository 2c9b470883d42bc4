import PoolSizeHTTP
import PoolSizeModel

/// One connection count of `bench-driver --format json`: raw numbers with their units in the
/// keys, for scripts, written through `JSONExport` as every JSON poolsize writes.
struct BenchDriverRow: Encodable {
    /// Requests kept in flight.
    var connections: Int
    /// 2xx answers in the window.
    var requests: Int
    /// Transfers that ended otherwise.
    var failures: Int
    /// The window's length.
    var windowSeconds: Double
    /// 2xx answers a second.
    var throughputPerSecond: Double
    /// The answers' latency percentiles.
    var latencyMicroseconds: LatencyPercentiles
    /// The driver thread's CPU over the window.
    var driverCPUMicroseconds: Double
    /// That CPU per answer.
    var driverCPUMicrosecondsPerRequest: Double
    /// Why the first failure failed; left out without one.
    var firstFailure: String?

    // The keys scripts read (scripts/benchmark-driver.sh); snake_case already, so
    // `JSONExport`'s conversion leaves them as they are.
    enum CodingKeys: String, CodingKey {
        case connections, requests, failures
        case windowSeconds = "window_s"
        case throughputPerSecond = "throughput_per_s"
        case latencyMicroseconds = "latency_us"
        case driverCPUMicroseconds = "driver_cpu_us"
        case driverCPUMicrosecondsPerRequest = "driver_cpu_us_per_request"
        case firstFailure = "first_failure"
    }

    /// The row of one driver run.
    init(_ result: HTTPLoadResult) {
        connections = result.connections
        requests = result.requests
        failures = result.failures
        windowSeconds = result.windowSeconds
        throughputPerSecond = result.throughputPerSecond
        latencyMicroseconds = result.latency
        driverCPUMicroseconds = result.driverCPUMicroseconds
        driverCPUMicrosecondsPerRequest = result.driverCPUMicrosecondsPerRequest
        firstFailure = result.firstFailure
    }
}
