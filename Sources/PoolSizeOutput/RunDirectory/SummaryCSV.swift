import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

/// `summary.csv`: one row per configuration (combination × pool size, and × arrival rate in an
/// open loop) over its repetitions, with the spread a reader needs to trust a mean
/// (docs/conventions.md): median, standard deviation, Student t interval, coefficient of
/// variation and MAD-flagged outliers. The open-loop columns come last and are empty for a
/// closed loop.
package enum SummaryCSV {
    /// The header's columns.
    package static let columns =
        [
            "workload", "pool", "qos", "primitive", "pool_size", "repetitions",
            "throughput_mean_per_s", "throughput_median_per_s", "throughput_stddev_per_s",
            "throughput_ci95_lower_per_s", "throughput_ci95_upper_per_s", "throughput_cv", "outliers",
            "latency_p50_us", "latency_p99_us", "utilization", "wait_cpu_ratio", "cpu_us_per_task",
            "peak_concurrency", "threads", "effective_nice", "integrity",
            "voluntary_ctx_switches", "involuntary_ctx_switches", "other_load", "errors", "error_rate",
        ] + openLoopColumns

    /// Open loop: the rate offered and carried, stability, backlog, the dispatcher's lag, and the
    /// objective with the size's verdict (`slo_percentile_us` is the worst repetition's value at
    /// the objective's percentile, `model_slo_percentile_us` the queueing model's).
    package static let openLoopColumns = [
        "arrival_rate_per_s", "offered_per_s", "achieved_per_s", "stable", "backlog_mean", "backlog_max", "unfinished",
        "dispatch_lag_p99_us", "slo_percentile", "latency_slo_us", "slo_percentile_us", "model_slo_percentile_us",
        "slo_met",
    ]

    /// One row per configuration of `records`.
    /// - Parameters:
    ///   - arrival: the open-loop plan (machine.json's `arrival`), for the objective's columns;
    ///     without it an open loop's rows judge the p99 and name no objective.
    ///   - lowLoad: C and W at low load, for the queueing model's column.
    package static func serialize(
        _ records: [TrialRecord], arrival: ArrivalPlan? = nil, lowLoad: LowLoadEstimate? = nil
    ) -> String {
        let plan = SLOSizer.plan(records: records, recorded: arrival, recommendation: nil)
        let tables = plan.map { SLOSizer.tables(records, arrival: $0, lowLoad: lowLoad) } ?? []
        return columns.joined(separator: ",") + "\n"
            + ConfigurationSummary.summarize(records.valid).map { c in
                let verdict = c.arrivalRate.flatMap { rate in
                    tables.first { $0.combination == c.combination && $0.arrivalRate == rate }?.verdict(c.poolSize)
                }
                return row(c, plan: plan, verdict: verdict)
            }.joined()
    }

    static func row(_ c: ConfigurationSummary, plan: ArrivalPlan? = nil, verdict: SLOVerdict? = nil) -> String {
        let t = c.throughput
        func n(_ value: Double?, _ decimals: Int) -> String {
            value.map { CSVField.number($0, decimals: decimals) } ?? ""
        }
        var fields: [String] = [
            CSVField.escape(c.workload), c.combination.pool.rawValue, c.combination.qos.rawValue,
            c.combination.primitive.rawValue,
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
        fields += openLoopFields(c, plan: plan, verdict: verdict, number: n)
        return fields.joined(separator: ",") + "\n"
    }
}
