import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

/// The one-screen summary `sweep` prints: a table of pool size → throughput, utilization and
/// W/C, then the recommendation and why. Pure: the sweep's analysis in, text out.
package enum ConsoleSummary {
    /// - Parameter analysis: the sweep's own analysis, the one its report prints too.
    package static func render(_ analysis: RunAnalysis, spec: WorkloadSpec, cores: CoreCount, lowLoad: LowLoadEstimate)
        -> String
    {
        let recommendations = analysis.run.recommendation
        let shares = analysis.run.contention
        // The name and description may come from a command line (--exec) or a URL: shown
        // escaped, so a control character in them cannot act on the terminal.
        var out =
            "workload \(TerminalText.escape(spec.name)): \(spec.description.isEmpty ? "custom spec" : TerminalText.escape(spec.description))\n"
        out += "cores \(cores.effective) [\(cores.derivation)]\n"
        if lowLoad.isMeasured {
            out +=
                "low load (\(analysis.server == nil ? "1 worker, \(lowLoad.tasks) tasks" : "one request in flight to the server at size 1, \(lowLoad.tasks) slices") in \(fmt(lowLoad.seconds)) s): C \(fmt(lowLoad.cpuMicrosecondsPerTask)) µs\(servingPool(lowLoad)), W \(fmt(lowLoad.waitMicrosecondsPerTask)) µs, W/C \(fmt(lowLoad.waitCPURatio))"
            if let ci = lowLoad.ratio?.confidenceInterval95 { out += " (95% CI \(fmt(ci.lower))–\(fmt(ci.upper)))" }
        } else {
            out += "low load: \(Self.unmeasuredLowLoad)"
        }
        out += "\n"
        if analysis.connectionPerRequest { out += "load: \(RunAnalysis.connectionPerRequestNote)\n" }
        if let windows = analysis.windowSentence { out += windows + "\n" }
        if let line = analysis.run.searchLine { out += line + "\n" }
        if case let .open(open) = analysis.loop { return out + openLoop(analysis, open, lowLoad: lowLoad) }
        let selfSized = analysis.selfSized.map { AdaptiveLines.sentence($0) + "\n" }.joined()
        guard let file = recommendations else {
            // A run of pools that size themselves only: what they chose is the answer.
            let valid = analysis.run.records.valid.count
            let why =
                analysis.run.records.noRecommendationCause
                ?? (selfSized.isEmpty ? "no knee could be found in the \(valid) valid trials" : nil)
            out += why.map { "\nno recommendation: \($0)\n" } ?? "\n" + selfSized
            return out + ReportCaveats.caveats(analysis).map { "warning: " + ReportInline.plain($0) + "\n" }.joined()
        }
        let best = file.best
        let bestPoints = analysis.curves.first { $0.combination == best.combination }?.points ?? []
        if file.combinations.count > 1 { out += "\nbest combination \(best.combination):" }
        out += "\n" + table(bestPoints, recommendation: best, measuresCPU: best.pool.measuresTaskCPU)
        if let note = ServerWaitProse.note(analysis) { out += note + "\n" }
        if file.combinations.count > 1 {
            out += "\n" + combinationTable(file.combinations, best: best) + file.verdict + "\n"
        }
        let formula =
            lowLoad.isMeasured
            ? "formula \(fmt(best.formulaQueueCountExact)) ± \(fmt(best.formulaQueueCountStandardError))"
            : "no formula without W/C"
        // A curve still rising at its largest size has no knee: that size is only where it stopped.
        let knee = best.stillRisingAtQueueCount == nil ? best.kneeQueueCount.map(String.init) ?? "–" : "none yet"
        out +=
            "\nrecommended queue count: \(best.recommendedQueueCount)  (\(formula), knee \(knee), peak at \(best.peakQueueCount.map(String.init) ?? "–")"
        if let peak = best.usl?.peakConcurrency { out += ", USL N* \(fmt(peak))" }
        out += ")\n" + best.reason + "\n"
        out += database(analysis, best: best)
        let rules = analysis.rulesOfThumb
        if !rules.isEmpty, let heading = analysis.ruleSet?.heading {
            out += "\n\(heading), \(analysis.rulesMeasured("this")):\n"
            out += rules.map { "  \($0.sentence)\n" }.joined()
        }
        if !selfSized.isEmpty { out += "\n" + selfSized }
        if !shares.isEmpty { out += "\n" + contentionTable(shares) }
        for caveat in ReportCaveats.caveats(analysis) { out += "warning: " + ReportInline.plain(caveat) + "\n" }
        return out
    }

    static func combinationTable(_ all: [Recommendation], best: Recommendation) -> String {
        var rows = [
            ["combination", "queues", "peak/s", "vs best", "formula", "knee", "USL N*", "max reached", "integrity"]
        ]
        for r in all {
            let peak = r.curve?.peakThroughputPerSecond ?? 0, bestPeak = best.curve?.peakThroughputPerSecond ?? 0
            rows.append([
                r.combination.description, String(r.recommendedQueueCount), fmt(peak),
                r.combination == best.combination
                    ? "best"
                    : String(format: "%+.1f%%", (peak / bestPeak - 1) * 100),
                fmt(r.formulaQueueCountExact), r.measuredKneeQueueCount.map(String.init) ?? "none yet",
                r.usl?.peakConcurrency.map(fmt) ?? "–",
                String(r.maxConcurrencyReached), r.integrity.rawValue,
            ])
        }
        return align(rows)
    }

    static func contentionTable(_ shares: [TierShare]) -> String {
        var rows = [["tier (all at once)", "share", "tasks/s", "nice"]]
        for s in shares {
            rows.append([
                s.qos.rawValue, String(format: "%.1f%%", s.share * 100), fmt(s.throughputPerSecond),
                String(s.effectiveNice),
            ])
        }
        return align(rows)
    }

    /// Why a run has no low-load figures: a load tool alone (the only such run) prints none.
    package static let unmeasuredLowLoad =
        "not measured: a load tool run alone prints no CPU time per request, so there is no W/C and no formula; the knee is the tool's measured curve"

    /// - Parameter measuresCPU: whether the trials measured the pool's CPU (utilization, W/C,
    ///   C, threads); a load tool alone has only its throughput and latency.
    static func table(_ points: [ConfigurationSummary], recommendation: Recommendation?, measuresCPU: Bool = true)
        -> String
    {
        if !measuresCPU { return toolTable(points, recommendation: recommendation) }
        var rows = [
            ["size", "throughput/s", "±sd", "util", "W/C", "C µs", "p99 µs", "in flight", "threads", "nice", ""]
        ]
        for p in points {
            rows.append([
                String(p.poolSize), fmt(p.throughput.mean),
                p.throughput.count > 1 ? fmt(p.throughput.standardDeviation) : "–",
                UnitFormat.wholePercent(p.utilization), fmt(p.waitCPURatio), fmt(p.cpuMicrosecondsPerTask),
                // 0 is "not recorded": a load tool that printed no p99 or kept no count of its
                // requests in flight, not a latency or a concurrency of 0.
                p.latencyP99Microseconds > 0 ? fmt(p.latencyP99Microseconds) : "–",
                p.peakConcurrency > 0 ? String(p.peakConcurrency) : "–", String(p.threads), String(p.effectiveNice),
                marks(p.poolSize, recommendation),
            ])
        }
        return align(rows)
    }

    /// A size's marks in a table: the recommendation, the knee when it is not the
    /// recommendation, the peak.
    static func marks(_ size: Int, _ recommendation: Recommendation?) -> String {
        guard let r = recommendation else { return "" }
        var marks: [String] = []
        if size == r.recommendedQueueCount { marks.append("◀ recommended") }
        // A curve still rising has no knee (`measuredKneeQueueCount` is nil): its largest size is only where it stopped.
        if size == r.measuredKneeQueueCount && size != r.recommendedQueueCount { marks.append("knee") }
        if size == r.peakQueueCount { marks.append("peak") }
        return marks.joined(separator: ", ")
    }

    /// A load tool's own figures by size: throughput and the latency it printed ("–" where it
    /// printed none); no CPU, threads or concurrency, which only a pool poolsize runs or a server
    /// it starts has.
    static func toolTable(_ points: [ConfigurationSummary], recommendation: Recommendation?) -> String {
        var rows = [["size", "throughput/s", "±sd", "p50 µs", "p99 µs", "errors", ""]]
        for p in points {
            rows.append([
                String(p.poolSize), fmt(p.throughput.mean),
                p.throughput.count > 1 ? fmt(p.throughput.standardDeviation) : "–",
                p.latencyP50Microseconds > 0 ? fmt(p.latencyP50Microseconds) : "–",
                p.latencyP99Microseconds > 0 ? fmt(p.latencyP99Microseconds) : "–", String(p.errors),
                marks(p.poolSize, recommendation),
            ])
        }
        return align(rows)
    }

    /// Left-aligns the first and last columns, right-aligns the numbers between (`TextTable`).
    /// - Parameter left: further columns of words (yes / no) to left-align.
    static func align(_ rows: [[String]], left: Set<Int> = []) -> String {
        TextTable.render(rows, leftAligned: left.union([0, (rows.first?.count ?? 1) - 1]))
    }

    static func fmt(_ value: Double) -> String { UnitFormat.significant(value) }
    static func time(_ microseconds: Double) -> String { UnitFormat.duration(microseconds: microseconds) }

    /// Whose CPU a server's C is, when not all of its threads': the pool that serves the
    /// requests, and what all of its threads spend.
    static func servingPool(_ lowLoad: LowLoadEstimate) -> String {
        guard let pool = lowLoad.servingPool, let whole = lowLoad.processCPUMicrosecondsPerTask else { return "" }
        return " of its \(TerminalText.escape(pool)) threads (all its threads \(fmt(whole)) µs)"
    }
}
