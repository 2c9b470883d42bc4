import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

/// `summary.csv`: one row per configuration (combination × pool size) over its repetitions,
/// with the spread a reader needs to trust a mean (docs/conventions.md): median, standard deviation,
/// Student t interval, coefficient of variation and MAD-flagged outliers.
public enum SummaryCSV {
    /// The header's columns.
    public static let columns = [
        "workload", "pool", "qos", "primitive", "pool_size", "repetitions",
        "throughput_mean_per_s", "throughput_median_per_s", "throughput_stddev_per_s",
        "throughput_ci95_lower_per_s", "throughput_ci95_upper_per_s", "throughput_cv", "outliers",
        "latency_p50_us", "latency_p99_us", "utilization", "wait_cpu_ratio", "cpu_us_per_task",
        "peak_concurrency", "threads", "effective_nice", "integrity",
        "voluntary_ctx_switches", "involuntary_ctx_switches", "other_load", "errors", "error_rate",
    ]

    /// One row per configuration of `records`.
    public static func serialize(_ records: [TrialRecord]) -> String {
        columns.joined(separator: ",") + "\n" + ConfigurationSummary.summarize(records.valid).map(row).joined()
    }

    static func row(_ c: ConfigurationSummary) -> String {
        let t = c.throughput
        func n(_ value: Double?, _ decimals: Int) -> String { value.map { CSVField.number($0, decimals: decimals) } ?? "" }
        let fields: [String] = [
            CSVField.escape(c.workload), c.combination.pool.rawValue, c.combination.qos.rawValue, c.combination.primitive.rawValue,
            String(c.poolSize), String(t.count),
            n(t.mean, 3), n(t.median, 3), n(t.standardDeviation, 3),
            n(t.confidenceInterval95?.lower, 3), n(t.confidenceInterval95?.upper, 3),
            n(t.coefficientOfVariation, 4), c.outlierRepetitions.map(String.init).joined(separator: ";"),
            n(c.latencyP50Microseconds, 1), n(c.latencyP99Microseconds, 1),
            n(c.utilization, 4), n(c.waitCPURatio, 4), n(c.cpuMicrosecondsPerTask, 3),
            String(c.peakConcurrency), String(c.threads), String(c.effectiveNice), c.integrity.rawValue,
            n(c.voluntaryContextSwitches, 1), n(c.involuntaryContextSwitches, 1), n(c.otherLoad, 4),
            String(c.errors), n(c.errorRate, 4),
        ]
        return fields.joined(separator: ",") + "\n"
    }
}
