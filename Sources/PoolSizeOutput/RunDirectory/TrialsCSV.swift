import Foundation
import PoolSizeModel

/// `trials.csv`: one row per trial. Columns carry their unit in the name and hold plain
/// numbers (docs/conventions.md); the row text is a pure function of the record, so the export manager
/// can append and flush one row the moment a trial finishes.
package enum TrialsCSV {
    /// The header's columns, in file order.
    package static let columns = [
        "run_id", "workload", "pool", "qos", "primitive", "pool_size", "repetition", "tasks", "wall_s",
        "throughput_per_s", "cpu_us_per_task", "wait_us_per_task", "wait_cpu_ratio", "utilization",
        "peak_concurrency", "threads", "effective_nice", "integrity", "critical_sections",
        "latency_p50_us", "latency_p90_us", "latency_p99_us", "latency_p999_us", "latency_max_us",
        "exec_p50_us", "exec_p99_us", "voluntary_ctx_switches", "involuntary_ctx_switches",
        "max_rss_kb", "process_threads", "other_load", "errors", "invalid_reason",
        "arrival_rate_per_s", "offered_per_s", "backlog_mean", "backlog_max", "backlog_growth", "stable",
        "unfinished", "dispatch_lag_p99_us", "size_steps",
    ]

    /// The header line.
    package static var header: String { columns.joined(separator: ",") + "\n" }

    /// One trial's row.
    package static func row(_ r: TrialRecord) -> String {
        let fields: [String] =
            [
                CSVField.escape(r.runID), CSVField.escape(r.workload), r.pool.rawValue, r.qos.rawValue,
                r.primitive.rawValue,
                String(r.poolSize), String(r.repetition), CSVField.number(r.tasks, decimals: 3),
                CSVField.number(r.wallSeconds, decimals: 6),
                CSVField.number(r.throughputPerSecond, decimals: 3),
                CSVField.number(r.cpuMicrosecondsPerTask, decimals: 3),
                CSVField.number(r.waitMicrosecondsPerTask, decimals: 3), CSVField.number(r.waitCPURatio, decimals: 4),
                CSVField.number(r.utilization, decimals: 4), String(r.peakConcurrency), String(r.threads),
                String(r.effectiveNice), r.integrity.rawValue, String(r.criticalSections),
                CSVField.number(r.latency.p50, decimals: 1), CSVField.number(r.latency.p90, decimals: 1),
                CSVField.number(r.latency.p99, decimals: 1), CSVField.number(r.latency.p999, decimals: 1),
                CSVField.number(r.latency.max, decimals: 1), CSVField.number(r.execution.p50, decimals: 1),
                CSVField.number(r.execution.p99, decimals: 1), String(r.voluntaryContextSwitches),
                String(r.involuntaryContextSwitches), String(r.maxRSSKilobytes), String(r.processThreads),
                CSVField.number(r.otherLoad, decimals: 4), String(r.errors), CSVField.escape(r.invalidReason ?? ""),
            ] + openLoopFields(r.openLoop) + [sizeSteps(r.sizeSteps)]
        return fields.joined(separator: ",") + "\n"
    }

    /// The sizes an adaptive pool chose, one cell: `seconds:size:throughput_per_s` per decision,
    /// separated by spaces (`0.104:32:117.1 0.211:32:1865.2`); empty for a fixed pool.
    static func sizeSteps(_ steps: [SizeStep]) -> String {
        steps.map {
            "\(CSVField.number($0.seconds, decimals: 3)):\($0.size):\(CSVField.number($0.throughputPerSecond, decimals: 1))"
        }
        .joined(separator: " ")
    }

    /// The open-loop columns: empty for a closed-loop trial.
    static func openLoopFields(_ o: OpenLoopFigures?) -> [String] {
        guard let o else { return Array(repeating: "", count: 8) }
        return [
            CSVField.number(o.arrivalRate.perSecond, decimals: 3), CSVField.number(o.offeredPerSecond, decimals: 3),
            CSVField.number(o.backlogMean, decimals: 3), String(o.backlogMax),
            CSVField.number(o.backlogGrowth, decimals: 3),
            o.stable ? "yes" : "no", String(o.unfinished), CSVField.number(o.dispatchLagP99Microseconds, decimals: 1),
        ]
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
