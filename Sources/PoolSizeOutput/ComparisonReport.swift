import PoolSizeModel
import PoolSizeAnalysis

/// `poolsize compare`'s Markdown: a heading, one table row per configuration in both runs, the
/// one-line verdict and the caveats. Meant for a CI job summary (`>> $GITHUB_STEP_SUMMARY`), so
/// plain GitHub-flavoured Markdown and no terminal colours. `--format json` is
/// `JSONExport.serialize(comparison)`.
package enum ComparisonReport {
    package static func render(_ c: RunComparison) -> String {
        var out = "## poolsize compare\n\n"
        // Run ids, the workload and the axis names are read from the two runs' files, which may
        // come from anywhere (a CI artifact): they are literal text in every cell and span.
        out += ReportMarkdown.inline(
            "Base \(ReportInline.code(c.baseRunID)) → current \(ReportInline.code(c.currentRunID)) · workload \(ReportInline.code(c.workload))"
        )
        if let cores = c.cores { out += " · \(cores) cores" }
        if let open = c.openLoop { return out + "\n\n" + openLoop(c, open) }
        out += " · threshold \(UnitFormat.percent(c.threshold)) · significance p < \(UnitFormat.number(c.alpha))\n\n"
        if !c.sizing.isEmpty {
            // The sizing answer first: what each run recommends, and whether that moved.
            out +=
                "| pool | qos | primitive | recommended base | current | Δ | knee base | current | peak base /s | current /s | Δ peak | verdict |\n"
            out += "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n"
            for s in c.sizing {
                let cells =
                    s.combination.cells + [
                        String(s.base.recommendedQueueCount), String(s.current.recommendedQueueCount),
                        RunComparator.signedPercent(s.recommendationChange),
                        String(s.base.kneePoolSize), String(s.current.kneePoolSize),
                        UnitFormat.number(s.base.peakThroughputPerSecond.rounded()),
                        UnitFormat.number(s.current.peakThroughputPerSecond.rounded()),
                        RunComparator.signedPercent(s.peakThroughputChange),
                        s.changed ? "**recommendation changed**" : "same sizing",
                    ]
                out += ReportMarkdown.row(cells) + "\n"
            }
            out +=
                "\nA recommendation change counts when it exceeds \(UnitFormat.percent(SizingComparison.recommendationThreshold)) and one step of either run's size grid (the knee cannot be located more finely). Per size, judged up to the knee and at the recommended size:\n\n"
        }
        out +=
            "| pool | qos | primitive | size | throughput base /s | current /s | Δ throughput | p99 base | p99 current | Δ p99 | verdict |\n"
        out += "|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n"
        for row in c.configurations {
            let key = row.configuration
            let t = row.throughput
            let l = row.latencyP99
            let cells =
                key.combination.cells + [
                    String(key.poolSize),
                    t.map { UnitFormat.number($0.baseMedian) } ?? "–",
                    t.map { UnitFormat.number($0.currentMedian) } ?? "–",
                    change(t),
                    l.map { UnitFormat.duration($0.baseMedian / 1e6) } ?? "–",
                    l.map { UnitFormat.duration($0.currentMedian / 1e6) } ?? "–", change(l),
                    row.judged ? verdict(row.verdict) : "past the knee, not judged",
                ]
            out += ReportMarkdown.row(cells) + "\n"
        }
        let summary = ReportMarkdown.inline(ReportInline.literal(c.summary))
        out += "\n" + (c.verdict == .regression ? "**\(summary)**" : summary) + "\n"
        if !c.notes.isEmpty {
            out += "\n" + c.notes.map { "- \(ReportMarkdown.inline(ReportInline.literal($0)))\n" }.joined()
        }
        out += "\nMedians over repetitions. A change counts when it exceeds the threshold and is significant: "
        out += "Mann–Whitney U where the repetitions allow p < \(UnitFormat.number(c.alpha)) (4 + 4 or more), "
        out += "otherwise non-overlapping \(UnitFormat.percent(1 - c.alpha)) Student-t intervals of the means.\n"
        return out
    }

    /// Two open-loop runs: the recommendation per rate, then each size's verdict in both runs
    /// and the change of the objective's percentile.
    static func openLoop(_ c: RunComparison, _ open: OpenLoopComparison) -> String {
        let a = open.arrival
        let name = SLOSizer.name(percentile: a.sloPercentile)
        let goal =
            a.latencySLOMicroseconds.map {
                "\(name) ≤ \(UnitFormat.duration(microseconds: $0)) from each task's intended arrival"
            } ?? "keeping up with the arrivals (no latency objective)"
        var out =
            "Open loop: \(a.process.rawValue) arrivals at \(a.rates.map { UnitFormat.rate($0) }.joined(separator: ", ")); objective \(goal).\n\n"
        out += "| pool | qos | primitive | rate | recommended base | current | verdict |\n"
        out += "|---|---|---|--:|--:|--:|---|\n"
        for s in open.sizings {
            let cells =
                s.combination.cells + [
                    UnitFormat.rate(s.arrivalRate),
                    s.base.map(String.init) ?? "none met it", s.current.map(String.init) ?? "none met it",
                    s.grew
                        ? "**grew beyond one size step**"
                        : s.base == s.current ? "same" : "within one size step or smaller",
                ]
            out += ReportMarkdown.row(cells) + "\n"
        }
        out +=
            "\nA recommendation regresses when it grows past the next size measured above the base's (noise can move it one step, not more) or no size meets the objective any more. Per size, the worst repetition's \(name):\n\n"
        out +=
            "| pool | qos | primitive | rate | size | base | current | \(name) base | \(name) current | Δ \(name) | verdict |\n"
        out += "|---|---|---|--:|--:|---|---|--:|--:|--:|---|\n"
        func state(_ met: Bool, _ stable: Bool) -> String { !stable ? "fell behind" : met ? "met" : "missed" }
        for s in open.sizes {
            let cells =
                s.combination.cells + [
                    UnitFormat.rate(s.arrivalRate), String(s.poolSize),
                    state(s.baseMet, s.baseStable), state(s.currentMet, s.currentStable),
                    UnitFormat.duration(microseconds: s.basePercentileMicroseconds),
                    UnitFormat.duration(microseconds: s.currentPercentileMicroseconds),
                    RunComparator.signedPercent(s.relativeChange),
                    s.lost ? "**lost the objective**" : s.gained ? "gained the objective" : "ok",
                ]
            out += ReportMarkdown.row(cells) + "\n"
        }
        let summary = ReportMarkdown.inline(ReportInline.literal(c.summary))
        out += "\n" + (c.verdict == .regression ? "**\(summary)**" : summary) + "\n"
        if !c.notes.isEmpty {
            out += "\n" + c.notes.map { "- \(ReportMarkdown.inline(ReportInline.literal($0)))\n" }.joined()
        }
        return out
    }

    /// `-20.0%`, with the evidence when the change is beyond the threshold.
    static func change(_ metric: MetricComparison?) -> String {
        guard let m = metric else { return "–" }
        let text = RunComparator.signedPercent(m.relativeChange)
        return m.verdict == .unchanged ? text : "\(text) (\(RunComparator.evidence(m)))"
    }

    static func verdict(_ v: ComparisonVerdict) -> String {
        switch v {
        case .regression: return "**regression**"
        case .improvement: return "improvement"
        case .inconclusive: return "noise"
        case .untested: return "untested"
        case .unchanged: return "ok"
        }
    }
}
