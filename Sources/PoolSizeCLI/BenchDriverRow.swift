import PoolSizeHTTP
import PoolSizeModel

/// One connection count of `bench-driver --format json`: raw numbers with their units in the
/// keys, for scripts, written through `JSONExport` as every JSON poolsize writes.
struct BenchDriverRow: Encodable {
    var connections: Int
    var requests: Int
    var failures: Int
    var windowSeconds: Double
    var throughputPerSecond: Double
    var latencyMicroseconds: LatencyPercentiles
    var driverCPUMicroseconds: Double
    var driverCPUMicrosecondsPerRequest: Double
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
