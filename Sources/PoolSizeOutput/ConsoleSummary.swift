import Foundation
import PoolSizeModel
import PoolSizeStats

/// The one-screen summary `sweep` prints: a table of pool size → throughput, utilization and
/// W/C, then the recommendation and why. Pure: records in, text out.
public enum ConsoleSummary {
    public static func render(spec: WorkloadSpec, cores: CoreCount, lowLoad: LowLoadEstimate, records: [TrialRecord], recommendation: Recommendation?) -> String {
        var out = "workload \(spec.name): \(spec.description.isEmpty ? "custom spec" : spec.description)\n"
        out += "cores \(cores.effective) [\(cores.derivation)]\n"
        out += "low load (1 worker, \(lowLoad.tasks) tasks in \(fmt(lowLoad.seconds)) s): C \(fmt(lowLoad.cpuMicrosecondsPerTask)) µs, W \(fmt(lowLoad.waitMicrosecondsPerTask)) µs, W/C \(fmt(lowLoad.waitCPURatio))"
        if let ci = lowLoad.ratio?.confidenceInterval95 { out += " (95% CI \(fmt(ci.lower))–\(fmt(ci.upper)))" }
        out += "\n\n"
        out += table(records: records, recommendation: recommendation)
        if let r = recommendation {
            out += "\nrecommended queue count: \(r.recommendedQueueCount)  (formula \(fmt(r.formulaQueueCountExact)) ± \(fmt(r.formulaQueueCountStandardError)), knee \(r.kneePoolSize), peak at \(r.peakPoolSize))\n"
            out += r.reason + "\n"
        }
        return out
    }

    static func table(records: [TrialRecord], recommendation: Recommendation?) -> String {
        let bySize = Dictionary(grouping: records, by: \.poolSize)
        var rows = [["size", "throughput/s", "±sd", "util", "W/C", "C µs", "in flight", "threads", ""]]
        for size in bySize.keys.sorted() {
            let group = bySize[size]!
            let tput = Summary(group.map(\.throughputPerSecond))
            var marks: [String] = []
            if let r = recommendation {
                if size == r.recommendedQueueCount { marks.append("◀ recommended") }
                if size == r.kneePoolSize && r.kneePoolSize != r.recommendedQueueCount { marks.append("knee") }
                if size == r.peakPoolSize { marks.append("peak") }
            }
            rows.append([
                String(size), fmt(tput?.mean ?? 0), fmt(tput?.standardDeviation ?? 0),
                String(format: "%.0f%%", mean(group.map(\.utilization)) * 100), fmt(mean(group.map(\.waitCPURatio))),
                fmt(mean(group.map(\.cpuMicrosecondsPerTask))), String(group.map(\.peakConcurrency).max() ?? 0),
                String(group.map(\.threads).max() ?? 0), marks.joined(separator: ", "),
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == row.count - 1 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    static func fmt(_ value: Double) -> String { Recommender.format(value) }
}
