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
        var ratio = Family(name: "poolsize_wait_cpu_ratio", help: "W/C measured at low load (one worker).")
        var cores = Family(name: "poolsize_cores", help: "Cores the run sized for.")
        if let best = analysis.run.recommendation?.best ?? analysis.primary?.recommendation {
            ratio.samples.append((runLabels, best.waitCPURatio))
            cores.samples.append((runLabels, Double(best.cores)))
        }
        let families: [Family]
        switch analysis.loop {
        case .closed: families = closedLoopFamilies(analysis, runLabels: runLabels)
        case let .open(open): families = openLoopFamilies(analysis, open, runLabels: runLabels)
        }
        return render(families + databaseFamilies(analysis, runLabels: runLabels) + [ratio, cores]) + "# EOF\n"
    }

    /// The figures every run has per size, before they are filled.
    static func sizeFamilies() -> (throughput: Family, p99: Family, utilization: Family, recommended: Family) {
        (
            Family(
                name: "poolsize_throughput_per_second",
                help: "Mean tasks completed per second over the repetitions at this pool size."),
            Family(
                name: "poolsize_latency_p99_seconds",
                help: "Mean 99th-percentile submit-to-completion latency over the repetitions.", unit: "seconds"),
            Family(
                name: "poolsize_utilization_ratio", help: "Mean share of the cores the process kept busy, 0 to 1.",
                unit: "ratio"),
            Family(name: "poolsize_recommended_queues", help: "The recommended queue (thread) count.")
        )
    }

    /// The labels of one combination's series.
    static func labels(_ runLabels: [(String, String)], _ combination: Combination) -> [(String, String)] {
        runLabels + [
            ("pool", combination.pool.rawValue), ("qos", combination.qos.rawValue),
            ("primitive", combination.primitive.rawValue),
        ]
    }

    /// A closed loop's families: per size the throughput, p99 and utilization; per combination
    /// the recommended count, the formula's and the knee.
    static func closedLoopFamilies(_ analysis: RunAnalysis, runLabels: [(String, String)]) -> [Family] {
        var (throughput, p99, utilization, recommended) = sizeFamilies()
        var formula = Family(name: "poolsize_formula_queues", help: "cores x U x (1 + W/C) from the low-load W/C.")
        var knee = Family(
            name: "poolsize_knee_queues", help: "Smallest measured size within the tolerance of peak throughput.")
        for curve in analysis.curves {
            let labels = labels(runLabels, curve.combination)
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
        return [throughput, p99, utilization, recommended, formula, knee]
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
