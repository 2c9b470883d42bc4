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
                                "basis \(r.basis.rawValue); knee \(r.kneeQueueCount); formula \(UnitFormat.significant(r.formulaQueueCountExact)) (W/C \(UnitFormat.significant(r.waitCPURatio)), \(r.cores) cores)"
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

/// `poolsize export --to openmetrics`: the OpenMetrics text exposition of a run's
/// recommendation and per-size figures, for a Pushgateway, a textfile collector or Grafana.
/// Gauges only (a run is a measurement at one time, not a counter); label values are escaped
/// as the format requires (backslash, double quote, line feed); the text ends with `# EOF`.
package enum OpenMetricsExport {
    struct Family {
        var name: String
        var help: String
        var unit: String?
        var samples: [(labels: [(String, String)], value: Double)] = []
    }

    package static func serialize(_ analysis: RunAnalysis) -> String {
        let workload = analysis.run.records.first?.workload ?? analysis.run.plan?.spec.name ?? "run"
        let host = analysis.run.info?.machine?.hostname ?? "unknown"
        let runLabels = [("workload", workload), ("host", host)]
        var throughput = Family(
            name: "poolsize_throughput_per_second",
            help: "Mean tasks completed per second over the repetitions at this pool size.")
        var p99 = Family(
            name: "poolsize_latency_p99_seconds",
            help: "Mean 99th-percentile submit-to-completion latency over the repetitions.", unit: "seconds")
        var utilization = Family(
            name: "poolsize_utilization_ratio", help: "Mean share of the cores the process kept busy, 0 to 1.",
            unit: "ratio")
        var recommended = Family(name: "poolsize_recommended_queues", help: "The recommended queue (thread) count.")
        var formula = Family(name: "poolsize_formula_queues", help: "cores x U x (1 + W/C) from the low-load W/C.")
        var knee = Family(
            name: "poolsize_knee_queues", help: "Smallest measured size within the tolerance of peak throughput.")
        var ratio = Family(name: "poolsize_wait_cpu_ratio", help: "W/C measured at low load (one worker).")
        var cores = Family(name: "poolsize_cores", help: "Cores the run sized for.")
        var open = OpenLoopFamilies()
        for curve in analysis.curves {
            let labels =
                runLabels + [
                    ("pool", curve.combination.pool.rawValue), ("qos", curve.combination.qos.rawValue),
                    ("primitive", curve.combination.primitive.rawValue),
                ]
            if let plan = analysis.openLoop {
                // Per rate and size: a range's rates are separate series (a `rate` label).
                for point in plan.summaries where point.combination == curve.combination {
                    let rate = point.arrivalRate ?? plan.topRate
                    let sized = labels + [("rate", number(rate.perSecond)), ("size", String(point.poolSize))]
                    throughput.samples.append((sized, point.openLoop?.achievedPerSecond ?? point.throughput.mean))
                    if point.latencyP99Microseconds > 0 {
                        p99.samples.append((sized, point.latencyP99Microseconds / 1e6))
                    }
                    utilization.samples.append((sized, point.utilization))
                }
                open.add(plan, combination: curve.combination, labels: labels, recommendation: curve.recommendation)
                // The recommendation per rate: at the rate sized for when a size met the
                // objective there, and at each other rate of a range where one did.
                for t in plan.tables(curve.combination) {
                    guard let pick = t.recommendedQueueCount else { continue }
                    recommended.samples.append((labels + [("rate", number(t.arrivalRate.perSecond))], Double(pick)))
                }
                continue
            }
            for point in curve.points {
                let sized = labels + [("size", String(point.poolSize))]
                throughput.samples.append((sized, point.throughput.mean))
                // 0 means the run recorded no latency (an older trials.csv), not an instant answer.
                if point.latencyP99Microseconds > 0 { p99.samples.append((sized, point.latencyP99Microseconds / 1e6)) }
                utilization.samples.append((sized, point.utilization))
            }
            if let r = curve.recommendation {
                recommended.samples.append((labels, Double(r.recommendedQueueCount)))
                formula.samples.append((labels, r.formulaQueueCountExact))
                knee.samples.append((labels, Double(r.kneeQueueCount)))
            }
        }
        if let best = analysis.run.recommendation?.best ?? analysis.primary?.recommendation {
            ratio.samples.append((runLabels, best.waitCPURatio))
            cores.samples.append((runLabels, Double(best.cores)))
        }
        var out = ""
        if analysis.isOpenLoop {
            throughput.help = "Mean tasks finished per second at this offered rate and pool size."
            p99.help = "Mean 99th-percentile latency from each task's intended arrival over the repetitions."
        }
        // An open loop has no knee or formula of its own: its recommendation is the objective's.
        let families =
            analysis.isOpenLoop
            ? [throughput, p99, utilization, recommended] + open.families + [ratio, cores]
            : [throughput, p99, utilization, recommended, formula, knee, ratio, cores]
        out += render(families)
        return out + "# EOF\n"
    }

    /// The families with finite samples, as gauges: TYPE, UNIT and HELP, then one line a sample.
    static func render(_ families: [Family]) -> String {
        var out = ""
        for family in families {
            let finite = family.samples.filter { $0.value.isFinite }
            guard !finite.isEmpty else { continue }
            out += "# TYPE \(family.name) gauge\n"
            if let unit = family.unit { out += "# UNIT \(family.name) \(unit)\n" }
            out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            for sample in finite {
                let labels = sample.labels.map { "\($0.0)=\"\(escapeLabel($0.1))\"" }.joined(separator: ",")
                out += "\(family.name){\(labels)} \(number(sample.value))\n"
            }
        }
        return out
    }

    /// The families only an open loop has, each sample labelled with its rate (and size).
    struct OpenLoopFamilies {
        var percentile = Family(
            name: "poolsize_latency_slo_percentile_seconds",
            help:
                "The objective's percentile of latency from each task's intended arrival, worst repetition, at this rate and pool size.",
            unit: "seconds")
        var model = Family(
            name: "poolsize_model_latency_slo_percentile_seconds",
            help:
                "That percentile as the queueing model (the task's own time plus M/M/c's wait) predicts it; absent where its queue cannot keep up.",
            unit: "seconds")
        var stable = Family(
            name: "poolsize_stable",
            help:
                "1 when every repetition kept up with the arrivals (carried at least 99%, backlog not growing), else 0."
        )
        var met = Family(
            name: "poolsize_slo_met",
            help: "1 when the size kept up and its percentile met the latency objective, else 0.")
        var objective = Family(name: "poolsize_latency_slo_seconds", help: "The latency objective.", unit: "seconds")
        var modelQueues = Family(
            name: "poolsize_queueing_model_queues",
            help: "The smallest pool size the queueing model says meets the objective (or keeps up) at this rate.")

        var families: [Family] { [percentile, model, stable, met, objective, modelQueues] }

        mutating func add(
            _ plan: RunAnalysis.OpenLoop, combination: Combination, labels: [(String, String)],
            recommendation: Recommendation?
        ) {
            let quantile = [("percentile", number(plan.arrival.sloPercentile))]
            for t in plan.tables(combination) {
                let rated = labels + [("rate", number(t.arrivalRate.perSecond))]
                for v in t.verdicts {
                    let sized = rated + [("size", String(v.poolSize))]
                    percentile.samples.append((sized + quantile, v.percentileMicroseconds / 1e6))
                    if let m = v.modelPercentileMicroseconds { model.samples.append((sized + quantile, m / 1e6)) }
                    stable.samples.append((sized, v.stable ? 1 : 0))
                    if let m = v.meetsSLO { met.samples.append((sized, m ? 1 : 0)) }
                }
                if let m = t.queueingModelQueueCount { modelQueues.samples.append((rated, Double(m))) }
            }
            if let slo = plan.arrival.latencySLOMicroseconds {
                objective.samples.append((labels + quantile, slo / 1e6))
            }
        }
    }

    /// A label value as OpenMetrics writes it: `\` → `\\`, `"` → `\"`, line feed → `\n`.
    package static func escapeLabel(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// HELP text: `\` and line feed escaped.
    static func escapeHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Integers without a fraction, others as Swift prints a Double (round-trips exactly).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
