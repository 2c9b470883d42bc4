import Foundation
import PoolSizeModel

/// `trials.csv`: one row per trial. Columns carry their unit in the name and hold plain
/// numbers (docs/conventions.md); the row text is a pure function of the record, so the export manager
/// can append and flush one row the moment a trial finishes.
package enum TrialsCSV {
    /// The columns, in file order: the one description of the file, its header, its rows and
    /// how they are read back (TrialsCSV+Reading). The open loop's columns come from its own
    /// file (TrialsColumn+OpenLoop), between the figures every trial has and the adaptive pool's;
    /// a server's processes (TrialsColumn+Server), the database's (TrialsColumn+Database), then how the
    /// window ended (TrialsColumn+Window).
    package static let columns: [TrialsColumn] =
        shared + TrialsColumn.openLoopColumns + [sizeStepsColumn, driverColumn] + TrialsColumn.serverColumns
        + TrialsColumn.databaseColumns + TrialsColumn.windowColumns

    /// A server trial's load driver: its CPU per request (0 for a pool's own trials).
    static let driverColumn = TrialsColumn.number(
        "driver_cpu_us_per_request", \.driverCPUMicrosecondsPerRequest, decimals: 3)

    /// The figures every trial has, closed loop or open.
    static let shared: [TrialsColumn] = [
        .text("run_id", \.runID), .text("workload", \.workload),
        .choice("pool", \.pool), .choice("qos", \.qos), .choice("primitive", \.primitive),
        TrialsColumn(
            "pool_size", required: true, write: { String($0.poolSize) },
            read: { row, r throws(PoolSizeError) in r.poolSize = try row.poolSize() }),
        .integer("repetition", \.repetition),
        .number("tasks", \.tasks, decimals: 3), .number("wall_s", \.wallSeconds, decimals: 6),
        .number("throughput_per_s", \.throughputPerSecond, decimals: 3, required: true),
        .number("cpu_us_per_task", \.cpuMicrosecondsPerTask, decimals: 3),
        .number("wait_us_per_task", \.waitMicrosecondsPerTask, decimals: 3),
        .number("wait_cpu_ratio", \.waitCPURatio, decimals: 4), .number("utilization", \.utilization, decimals: 4),
        .integer("peak_concurrency", \.peakConcurrency), .integer("threads", \.threads),
        .integer("effective_nice", \.effectiveNice, signed: true),
        TrialsColumn(
            "integrity", write: { $0.integrity.rawValue },
            read: { row, r throws(PoolSizeError) in r.integrity = try row.integrity() }),
        .integer("critical_sections", \.criticalSections),
        .number("latency_p50_us", \.latency.p50, decimals: 1), .number("latency_p90_us", \.latency.p90, decimals: 1),
        .number("latency_p99_us", \.latency.p99, decimals: 1), .number("latency_p999_us", \.latency.p999, decimals: 1),
        .number("latency_max_us", \.latency.max, decimals: 1),
        .number("exec_p50_us", \.execution.p50, decimals: 1), .number("exec_p99_us", \.execution.p99, decimals: 1),
        .integer("voluntary_ctx_switches", \.voluntaryContextSwitches),
        .integer("involuntary_ctx_switches", \.involuntaryContextSwitches),
        .integer("max_rss_kb", \.maxRSSKilobytes), .integer("process_threads", \.processThreads),
        .number("other_load", \.otherLoad, decimals: 4), .integer("errors", \.errors),
        TrialsColumn(
            "invalid_reason", write: { CSVField.escape($0.invalidReason ?? "") },
            read: { row, r in r.invalidReason = row.text("invalid_reason").flatMap { $0.isEmpty ? nil : $0 } }),
    ]

    /// The sizes an adaptive pool chose; empty for a fixed pool.
    static let sizeStepsColumn = TrialsColumn(
        "size_steps", write: { TrialsCSV.sizeSteps($0.sizeSteps) },
        read: { row, r throws(PoolSizeError) in r.sizeSteps = try row.sizeSteps() })

    /// The sizes an adaptive pool chose, one cell: `seconds:size:throughput_per_s` per decision,
    /// separated by spaces (`0.104:32:117.1 0.211:32:1865.2`); empty for a fixed pool.
    static func sizeSteps(_ steps: [SizeStep]) -> String {
        steps.map {
            "\(CSVField.number($0.seconds, decimals: 3)):\($0.size):\(CSVField.number($0.throughputPerSecond, decimals: 1))"
        }
        .joined(separator: " ")
    }

    /// The columns' names, in file order.
    package static var columnNames: [String] { columns.map(\.name) }

    /// The header line.
    package static var header: String { columnNames.joined(separator: ",") + "\n" }

    /// One trial's row.
    package static func row(_ r: TrialRecord) -> String {
        columns.map { $0.write(r) }.joined(separator: ",") + "\n"
    }

    /// A whole file: header and rows.
    package static func serialize(_ records: [TrialRecord]) -> String {
        header + records.map(row).joined()
    }
}

/// RFC 4180 field formatting.
package enum CSVField {
    /// `text` as one RFC 4180 field: quoted, with quotes doubled, when it holds a comma, quote or line break.
    package static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Fixed decimals, no exponent, no locale; NaN and infinities as `nan`, `inf`, `-inf`.
    package static func number(_ value: Double, decimals: Int) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        return String(format: "%.\(decimals)f", value)
    }
}
