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
        var entries: [Entry] = []
        if let open = analysis.openLoop {
            entries = openLoopEntries(analysis, open, workload: workload, direction: direction)
        }
        for curve in analysis.curves where !analysis.isOpenLoop {
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
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entries) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// An open loop's entries, named with the rate (`io queue-pool/default/none 1000/s N=20 p99
    /// latency`) so a range's rates never share a name. Bigger is better: the rate each size
    /// carried. Smaller is better: the recommended queue count (per rate in a range), the
    /// objective's percentile at the recommended size, and that percentile per rate and size.
    static func openLoopEntries(
        _ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop, workload: String, direction: Direction
    ) -> [Entry] {
        var entries: [Entry] = []
        let name = open.percentileName
        for curve in analysis.curves {
            let prefix = "\(workload) \(curve.combination)"
            let tables = open.tables(curve.combination)
            switch direction {
            case .bigger:
                for t in tables {
                    for v in t.verdicts where v.achievedPerSecond.isFinite {
                        entries.append(
                            Entry(
                                name: "\(prefix) \(rate(t.arrivalRate)) N=\(v.poolSize) carried", unit: "tasks/s",
                                value: v.achievedPerSecond, range: nil,
                                extra:
                                    "offered \(UnitFormat.significant(v.offeredPerSecond))/s; \(v.stable ? "kept up" : "fell behind"); \(v.trials) repetition(s)"
                            ))
                    }
                }
            case .smaller:
                if let r = curve.recommendation {
                    let goal =
                        r.latency?.latencySLOMicroseconds.map { "\(name) ≤ \(UnitFormat.duration(microseconds: $0))" }
                        ?? "keeping up"
                    entries.append(
                        Entry(
                            name: "\(prefix) recommended queues", unit: "queues",
                            value: Double(r.recommendedQueueCount), range: nil,
                            extra:
                                "basis \(r.basis.rawValue); \(goal) at \(UnitFormat.rate(r.latency?.arrivalRate ?? open.topRate)) \(r.latency?.met == true ? "met" : "not met by any size (largest measured)"); queueing model \(r.latency?.queueingModelQueueCount.map(String.init) ?? "none")"
                        ))
                    if r.latency?.met == true, let measured = r.latency?.measuredMicroseconds {
                        entries.append(
                            Entry(
                                name: "\(prefix) \(name) latency at the recommended size", unit: "us", value: measured,
                                range: nil,
                                extra:
                                    "N = \(r.recommendedQueueCount) at \(UnitFormat.rate(r.latency?.arrivalRate ?? open.topRate)); worst repetition, from intended arrival"
                                    + (r.latency?.latencySLOMicroseconds.map {
                                        "; objective \(UnitFormat.number($0)) us"
                                    } ?? "")))
                    }
                }
                if open.isRange {
                    for t in tables {
                        guard let pick = t.recommendedQueueCount else { continue }
                        entries.append(
                            Entry(
                                name: "\(prefix) \(rate(t.arrivalRate)) recommended queues", unit: "queues",
                                value: Double(pick), range: nil,
                                extra: "queueing model \(t.queueingModelQueueCount.map(String.init) ?? "none")"))
                    }
                }
                for t in tables {
                    for v in t.verdicts where v.percentileMicroseconds.isFinite && v.percentileMicroseconds > 0 {
                        entries.append(
                            Entry(
                                name: "\(prefix) \(rate(t.arrivalRate)) N=\(v.poolSize) \(name) latency", unit: "us",
                                value: v.percentileMicroseconds, range: nil,
                                extra:
                                    "worst of \(v.trials) repetition(s), from intended arrival; p50 \(UnitFormat.significant(v.p50Microseconds)) us; \(v.stable ? "kept up" : "fell behind (a lower bound)")"
                                    + (v.meetsSLO.map { $0 ? "; met the objective" : "; missed the objective" } ?? "")))
                    }
                }
            }
        }
        return entries
    }

    /// `1000/s`, exact (no rounding, so two rates of a range never share a name).
    static func rate(_ rate: ArrivalRate) -> String { OpenMetricsExport.number(rate.perSecond) + "/s" }
}
