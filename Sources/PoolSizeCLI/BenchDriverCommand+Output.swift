import Foundation
import PoolSizeHTTP
import PoolSizeModel
import PoolSizeOutput

extension BenchDriverCommand {
    /// One aligned row per connection count (`TextTable`), for people.
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
        var text = TextTable.render(rows, leftAligned: [])
        for result in results {
            if let failure = result.firstFailure {
                // The failure holds the server's reason phrase: text from outside, shown escaped.
                text +=
                    "\(result.connections) connections: \(result.failures) failed; the first \(TerminalText.escape(failure))\n"
            }
        }
        return text
    }

    /// One object per connection count (`BenchDriverRow`), for scripts.
    static func json(_ results: [HTTPLoadResult]) -> String {
        JSONExport.serialize(results.map(BenchDriverRow.init))
    }
}
