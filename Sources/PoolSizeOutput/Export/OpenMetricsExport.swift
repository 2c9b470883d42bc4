import Foundation
import PoolSizeAnalysis
import PoolSizeModel

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
                if let kneeCount = r.kneeQueueCount { knee.samples.append((labels, Double(kneeCount))) }
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
