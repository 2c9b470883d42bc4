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
        let workload = analysis.run.records.first?.workload ?? analysis.run.info?.workload?.name ?? "run"
        var entries: [Entry] = []
        for curve in analysis.curves {
            let prefix = "\(workload) \(curve.combination)"
            switch direction {
            case .bigger:
                for point in curve.points where point.throughput.mean.isFinite {
                    let range = point.throughput.confidenceInterval95.map { "± \(UnitFormat.significant(($0.upper - $0.lower) / 2))" }
                    entries.append(Entry(
                        name: "\(prefix) N=\(point.poolSize) throughput", unit: "tasks/s", value: point.throughput.mean, range: range,
                        extra: "\(point.throughput.count) repetition(s); CV \(UnitFormat.percentOneDecimal(point.throughput.coefficientOfVariation)); utilization \(UnitFormat.wholePercent(point.utilization))"))
                }
                if let peak = curve.peak {
                    entries.append(Entry(name: "\(prefix) peak throughput", unit: "tasks/s", value: peak.throughput.mean, range: nil, extra: "at N = \(peak.poolSize)"))
                }
            case .smaller:
                if let r = curve.recommendation {
                    entries.append(Entry(
                        name: "\(prefix) recommended queues", unit: "queues", value: Double(r.recommendedQueueCount), range: nil,
                        extra: "basis \(r.basis.rawValue); knee \(r.kneePoolSize); formula \(UnitFormat.significant(r.formulaQueueCountExact)) (W/C \(UnitFormat.significant(r.waitCPURatio)), \(r.cores) cores)"))
                }
                for point in curve.points where point.latencyP99Microseconds.isFinite && point.latencyP99Microseconds > 0 {
                    entries.append(Entry(name: "\(prefix) N=\(point.poolSize) p99 latency", unit: "us", value: point.latencyP99Microseconds, range: nil, extra: "p50 \(UnitFormat.significant(point.latencyP50Microseconds)) us"))
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entries) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
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
        let workload = analysis.run.records.first?.workload ?? analysis.run.info?.workload?.name ?? "run"
        let host = analysis.run.info?.machine?.hostname ?? "unknown"
        let runLabels = [("workload", workload), ("host", host)]
        var throughput = Family(name: "poolsize_throughput_per_second", help: "Mean tasks completed per second over the repetitions at this pool size.")
        var p99 = Family(name: "poolsize_latency_p99_seconds", help: "Mean 99th-percentile submit-to-completion latency over the repetitions.", unit: "seconds")
        var utilization = Family(name: "poolsize_utilization_ratio", help: "Mean share of the cores the process kept busy, 0 to 1.", unit: "ratio")
        var recommended = Family(name: "poolsize_recommended_queues", help: "The recommended queue (thread) count.")
        var formula = Family(name: "poolsize_formula_queues", help: "cores x U x (1 + W/C) from the low-load W/C.")
        var knee = Family(name: "poolsize_knee_queues", help: "Smallest measured size within the tolerance of peak throughput.")
        var ratio = Family(name: "poolsize_wait_cpu_ratio", help: "W/C measured at low load (one worker).")
        var cores = Family(name: "poolsize_cores", help: "Cores the run sized for.")
        for curve in analysis.curves {
            let labels = runLabels + [("pool", curve.combination.pool.rawValue), ("qos", curve.combination.qos.rawValue), ("primitive", curve.combination.primitive.rawValue)]
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
                knee.samples.append((labels, Double(r.kneePoolSize)))
            }
        }
        if let best = analysis.run.recommendation?.best ?? analysis.primary?.recommendation {
            ratio.samples.append((runLabels, best.waitCPURatio))
            cores.samples.append((runLabels, Double(best.cores)))
        }
        var out = ""
        for family in [throughput, p99, utilization, recommended, formula, knee, ratio, cores] {
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
        return out + "# EOF\n"
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
