import Foundation
import PoolSizeAnalysis
import PoolSizeModel

/// `poolsize export --to github-benchmark`: the JSON array benchmark-action/github-action-benchmark
/// reads with its `customBiggerIsBetter` and `customSmallerIsBetter` tools:
/// `[{"name", "unit", "value", "range", "extra"}]`. One file has one direction, so throughput
/// (bigger is better) and latency with the recommended size (smaller is better) are two exports.
/// Names are stable across runs of the same plan (`io queue-pool/default/none N=16 throughput`),
/// so the action can chart each over commits.
package enum GitHubBenchmarkExport {
    /// Which of the action's two custom tools the file is for.
    package enum Direction: String, CaseIterable, Sendable {
        /// Throughput per size and the peak: `customBiggerIsBetter`.
        case bigger
        /// p99 latency per size and the recommended queue count: `customSmallerIsBetter`.
        case smaller
    }

    struct Entry: Encodable {
        var name: String
        var unit: String
        var value: Double
        var range: String?
        var extra: String?
    }

    package static func serialize(_ analysis: RunAnalysis, direction: Direction) -> String {
        let workload = analysis.run.records.first?.workload ?? analysis.run.plan?.spec.name ?? "run"
        let entries: [Entry]
        switch analysis.loop {
        case .closed: entries = closedLoopEntries(analysis, workload: workload, direction: direction)
        case let .open(open): entries = openLoopEntries(analysis, open, workload: workload, direction: direction)
        }
        // The action's own layout: no `schema_version` beside its keys, so not `serialize`.
        return JSONExport.encode(entries)
    }

    /// A closed loop's entries per combination: bigger is better, the throughput per size and
    /// the peak; smaller is better, the recommended queue count and the p99 latency per size.
    static func closedLoopEntries(_ analysis: RunAnalysis, workload: String, direction: Direction) -> [Entry] {
        var entries: [Entry] = []
        for curve in analysis.curves {
            let prefix = "\(workload) \(curve.combination)"
            switch direction {
            case .bigger:
                for point in curve.points where point.throughput.mean.isFinite {
                    let range = point.throughput.confidenceInterval95.map {
                        "± \(UnitFormat.significant(($0.upper - $0.lower) / 2))"
                    }
                    entries.append(
                        Entry(
                            name: "\(prefix) N=\(point.poolSize) throughput", unit: "tasks/s",
                            value: point.throughput.mean, range: range,
                            extra:
                                "\(point.throughput.count) repetition(s); CV \(UnitFormat.percentOneDecimal(point.throughput.coefficientOfVariation)); utilization \(UnitFormat.wholePercent(point.utilization))"
                        ))
                }
                if let peak = curve.peak {
                    entries.append(
                        Entry(
                            name: "\(prefix) peak throughput", unit: "tasks/s", value: peak.throughput.mean, range: nil,
                            extra: "at N = \(peak.poolSize)"))
                }
            case .smaller:
                if let r = curve.recommendation {
                    entries.append(
                        Entry(
                            name: "\(prefix) recommended queues", unit: "queues",
                            value: Double(r.recommendedQueueCount), range: nil,
                            extra:
                                "basis \(r.basis.rawValue); knee \(r.kneeQueueCount.map(String.init) ?? "–"); formula \(UnitFormat.significant(r.formulaQueueCountExact)) (W/C \(UnitFormat.significant(r.waitCPURatio)), \(r.cores) cores)"
                        ))
                }
                for point in curve.points
                where point.latencyP99Microseconds.isFinite && point.latencyP99Microseconds > 0 {
                    entries.append(
                        Entry(
                            name: "\(prefix) N=\(point.poolSize) p99 latency", unit: "us",
                            value: point.latencyP99Microseconds, range: nil,
                            extra: "p50 \(UnitFormat.significant(point.latencyP50Microseconds)) us"))
                }
                entries += databaseEntries(analysis, combination: curve.combination, prefix: prefix)
            }
        }
        return entries
    }

    /// `1000/s`, exact (no rounding, so two rates of a range never share a name).
    static func rate(_ rate: ArrivalRate) -> String { OpenMetricsExport.number(rate.perSecond) + "/s" }
}
