import Foundation
import PoolSizeHTTP
import PoolSizeModel

extension BenchDriverCommand {
    /// One aligned row per connection count, for people.
    static func table(_ results: [HTTPLoadResult]) -> String {
        let header = [
            "connections", "requests/s", "requests", "failures", "window", "p50", "p90", "p99", "p99.9", "max",
            "driver CPU/request",
        ]
        var rows = [header]
        for result in results {
            let latency = result.latency
            rows.append([
                String(result.connections), UnitFormat.fixed(result.throughputPerSecond, decimals: 0),
                String(result.requests), String(result.failures), UnitFormat.duration(result.windowSeconds),
                UnitFormat.duration(microseconds: latency.p50), UnitFormat.duration(microseconds: latency.p90),
                UnitFormat.duration(microseconds: latency.p99), UnitFormat.duration(microseconds: latency.p999),
                UnitFormat.duration(microseconds: latency.max),
                UnitFormat.fixed(result.driverCPUMicrosecondsPerRequest, decimals: 1) + " µs",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                String(repeating: " ", count: widths[column] - cell.count) + cell
            }
            text += cells.joined(separator: "  ") + "\n"
        }
        for result in results {
            if let failure = result.firstFailure {
                // The failure holds the server's reason phrase: text from outside, shown escaped.
                text +=
                    "\(result.connections) connections: \(result.failures) failed; the first \(TerminalText.escape(failure))\n"
            }
        }
        return text
    }

    /// One object per connection count, raw numbers with their units in the keys, for scripts.
    static func json(_ results: [HTTPLoadResult]) -> String {
        let objects: [[String: Any]] = results.map { result in
            var object: [String: Any] = [
                "connections": result.connections,
                "requests": result.requests,
                "failures": result.failures,
                "window_s": result.windowSeconds,
                "throughput_per_s": result.throughputPerSecond,
                "latency_us": [
                    "p50": result.latency.p50, "p90": result.latency.p90, "p99": result.latency.p99,
                    "p999": result.latency.p999, "max": result.latency.max,
                ],
                "driver_cpu_us": result.driverCPUMicroseconds,
                "driver_cpu_us_per_request": result.driverCPUMicrosecondsPerRequest,
            ]
            if let failure = result.firstFailure { object["first_failure"] = failure }
            return object
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
