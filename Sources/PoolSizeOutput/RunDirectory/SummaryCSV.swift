import Foundation
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
        "voluntary_ctx_switches", "involuntary_ctx_switches", "other_load",
    ]

    /// One row per configuration of `records`.
    public static func serialize(_ records: [TrialRecord]) -> String {
        let groups = Dictionary(grouping: records) { ConfigurationKey(workload: $0.workload, combination: $0.combination, size: $0.poolSize) }
        let rows = groups.keys.sorted().map { row(key: $0, records: groups[$0]!.sorted { $0.repetition < $1.repetition }) }
        return columns.joined(separator: ",") + "\n" + rows.joined()
    }

    static func row(key: ConfigurationKey, records: [TrialRecord]) -> String {
        let throughput = records.map(\.throughputPerSecond)
        let summary = Summary(throughput)
        let outliers = Outliers.madIndices(throughput).map { String(records[$0].repetition) }.joined(separator: ";")
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }
        func n(_ value: Double?, _ decimals: Int) -> String { value.map { CSVField.number($0, decimals: decimals) } ?? "" }
        let fields: [String] = [
            CSVField.escape(key.workload), key.combination.pool.rawValue, key.combination.qos.rawValue, key.combination.primitive.rawValue,
            String(key.size), String(records.count),
            n(summary?.mean, 3), n(summary?.median, 3), n(summary?.standardDeviation, 3),
            n(summary?.confidenceInterval95?.lower, 3), n(summary?.confidenceInterval95?.upper, 3),
            n(summary?.coefficientOfVariation, 4), outliers,
            n(mean(records.map(\.latency.p50)), 1), n(mean(records.map(\.latency.p99)), 1),
            n(mean(records.map(\.utilization)), 4), n(mean(records.map(\.waitCPURatio)), 4), n(mean(records.map(\.cpuMicrosecondsPerTask)), 3),
            String(records.map(\.peakConcurrency).max() ?? 0), String(records.map(\.threads).max() ?? 0),
            String(records.map(\.effectiveNice).min() ?? 0), records.integrityVerdict.rawValue,
            n(mean(records.map { Double($0.voluntaryContextSwitches) }), 1), n(mean(records.map { Double($0.involuntaryContextSwitches) }), 1),
            n(mean(records.map(\.otherLoad)), 4),
        ]
        return fields.joined(separator: ",") + "\n"
    }
}

/// Sort key of a summary row: workload, combination in axis order, then size.
struct ConfigurationKey: Hashable, Comparable {
    var workload: String
    var combination: PoolSizeModel.Combination
    var size: Int

    static func < (a: ConfigurationKey, b: ConfigurationKey) -> Bool {
        if a.workload != b.workload { return a.workload < b.workload }
        if a.combination != b.combination { return a.combination < b.combination }
        return a.size < b.size
    }
}
