import Foundation
import PoolSizeModel
import PoolSizeStats

/// The one-screen summary `sweep` prints: a table of pool size → throughput, utilization and
/// W/C, then the recommendation and why. Pure: records in, text out.
package enum ConsoleSummary {
    /// - Parameter analysis: the sweep's own analysis, the one its report prints too.
    package static func render(_ analysis: RunAnalysis, spec: WorkloadSpec, cores: CoreCount, lowLoad: LowLoadEstimate) -> String {
        let records = analysis.run.records
        let recommendations = analysis.run.recommendation
        let shares = analysis.run.contention
        var out = "workload \(spec.name): \(spec.description.isEmpty ? "custom spec" : spec.description)\n"
        out += "cores \(cores.effective) [\(cores.derivation)]\n"
        out += "low load (1 worker, \(lowLoad.tasks) tasks in \(fmt(lowLoad.seconds)) s): C \(fmt(lowLoad.cpuMicrosecondsPerTask)) µs, W \(fmt(lowLoad.waitMicrosecondsPerTask)) µs, W/C \(fmt(lowLoad.waitCPURatio))"
        if let ci = lowLoad.ratio?.confidenceInterval95 { out += " (95% CI \(fmt(ci.lower))–\(fmt(ci.upper)))" }
        out += "\n"
        guard let file = recommendations else { return out + "\nno trials were measured\n" }
        let best = file.best
        let bestRecords = records.filter { $0.combination == best.combination }
        if file.combinations.count > 1 { out += "\nbest combination \(best.combination):" }
        out += "\n" + table(records: bestRecords, recommendation: best)
        if file.combinations.count > 1 { out += "\n" + combinationTable(file.combinations, best: best) + file.verdict + "\n" }
        out += "\nrecommended queue count: \(best.recommendedQueueCount)  (formula \(fmt(best.formulaQueueCountExact)) ± \(fmt(best.formulaQueueCountStandardError)), knee \(best.kneePoolSize), peak at \(best.peakPoolSize)"
        if let peak = best.usl?.peakConcurrency { out += ", USL N* \(fmt(peak))" }
        out += ")\n" + best.reason + "\n"
        if !shares.isEmpty { out += "\n" + contentionTable(shares) }
        for caveat in ReportCaveats.caveats(analysis) { out += "warning: " + ReportInline.plain(caveat) + "\n" }
        return out
    }

    static func combinationTable(_ all: [Recommendation], best: Recommendation) -> String {
        var rows = [["combination", "queues", "peak/s", "vs best", "formula", "knee", "USL N*", "max reached", "integrity"]]
        for r in all {
            rows.append([
                r.combination.description, String(r.recommendedQueueCount), fmt(r.peakThroughputPerSecond),
                r.combination == best.combination ? "best" : String(format: "%+.1f%%", (r.peakThroughputPerSecond / best.peakThroughputPerSecond - 1) * 100),
                fmt(r.formulaQueueCountExact), String(r.kneePoolSize), r.usl?.peakConcurrency.map(fmt) ?? "–",
                String(r.maxConcurrencyReached), r.integrity.rawValue,
            ])
        }
        return align(rows)
    }

    static func contentionTable(_ shares: [TierShare]) -> String {
        var rows = [["tier (all at once)", "share", "tasks/s", "nice"]]
        for s in shares {
            rows.append([s.qos.rawValue, String(format: "%.1f%%", s.share * 100), fmt(s.throughputPerSecond), String(s.effectiveNice)])
        }
        return align(rows)
    }

    static func table(records: [TrialRecord], recommendation: Recommendation?) -> String {
        let bySize = Dictionary(grouping: records, by: \.poolSize)
        var rows = [["size", "throughput/s", "±sd", "util", "W/C", "C µs", "p99 µs", "in flight", "threads", "nice", ""]]
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
                fmt(mean(group.map(\.cpuMicrosecondsPerTask))), fmt(mean(group.map(\.latency.p99))), String(group.map(\.peakConcurrency).max() ?? 0),
                String(group.map(\.threads).max() ?? 0), String(group.map(\.effectiveNice).min() ?? 0), marks.joined(separator: ", "),
            ])
        }
        return align(rows)
    }

    /// Left-aligns the first and last columns, right-aligns the numbers between.
    static func align(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == row.count - 1 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    static func fmt(_ value: Double) -> String { UnitFormat.significant(value) }
}
