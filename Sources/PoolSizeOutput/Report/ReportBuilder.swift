import PoolSizeModel

/// Builds the report's blocks from a run: the recommendation first, then the machine, the
/// charts, the measurements, the fit parameters and the caveats. Pure.
package enum ReportBuilder {
    /// - Parameters:
    ///   - charts: the charts written for this run (their order is the report's).
    ///   - chartsRendered: false when gnuplot was missing or failed: the report then says how to
    ///     render them (the image links work once they are).
    ///   - plotCommand: the command that renders them, for that note.
    package static func build(_ analysis: RunAnalysis, charts: [Chart], chartsRendered: Bool, plotCommand: String)
        -> ReportDocument
    {
        let run = analysis.run
        var blocks: [ReportDocument.Block] = []
        switch analysis.loop {
        case let .open(open):
            blocks += openLoopBlocks(
                analysis, open, charts: charts, chartsRendered: chartsRendered, plotCommand: plotCommand)
        case .closed:
            blocks += recommendation(analysis)
            blocks += server(analysis)
            blocks += database(analysis)
            blocks += adaptive(analysis)
            blocks += machine(analysis)
            blocks += lowLoad(analysis)
            blocks += chartBlocks(charts, chartsRendered: chartsRendered, plotCommand: plotCommand)
            blocks += ReportBuilder.measurements(analysis)
            blocks += fits(analysis)
        }
        blocks.append(.heading(level: 2, text: "Caveats"))
        let caveats = ReportCaveats.caveats(analysis)
        blocks.append(caveats.isEmpty ? .paragraph("None found in the data.") : .bullets(caveats))
        blocks.append(
            .paragraph(
                "Written by poolsize from the files in this run directory; regenerate with `poolsize report RUN_DIR`."))
        return ReportDocument(title: "How many queues? " + ReportInline.literal(run.headline), blocks: blocks)
    }

    static func chartBlocks(_ charts: [Chart], chartsRendered: Bool, plotCommand: String) -> [ReportDocument.Block] {
        guard !charts.isEmpty else { return [] }
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Charts")]
        if !chartsRendered {
            blocks.append(
                .paragraph(
                    "The charts were not rendered when this report was written (gnuplot missing or failing). Install gnuplot (`apt-get install --no-install-recommends gnuplot-nox`) and run \(ReportInline.code(plotCommand)); the links below work after that."
                ))
        }
        for chart in charts { blocks.append(.chart(name: chart.name, caption: chart.caption, note: chart.note)) }
        return blocks
    }

    static func recommendation(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Recommendation")]
        guard let primary = analysis.primary, let r = primary.recommendation else {
            if !analysis.selfSized.isEmpty, analysis.run.records.withheldRecommendation == nil {
                blocks.append(
                    .paragraph(
                        "No fixed size to recommend: an adaptive pool sizes itself. What it chose is below."))
                return blocks
            }
            blocks.append(
                noRecommendation(
                    analysis,
                    otherwise:
                        "the run has no complete throughput curve (recommendation.json and lowload.json are missing or empty)"
                ))
            return blocks
        }
        let what = recommendedCombination(analysis, primary)
        var basis =
            r.basis == .formula
            ? "the formula (throughput was still rising)" : "the knee of the measured throughput curve"
        if case .knee(.withoutWaitCPU(stillRisingAt: .some), _, _)? = r.explanation {
            basis = "the largest size measured (throughput was still rising, and there is no formula without W/C)"
        }
        blocks.append(
            .paragraph(
                "**\(r.recommendedQueueCount) queues**\(what) for the \(ReportInline.literal(r.workload)) workload on \(r.cores) cores, from \(basis)."
            ))
        blocks.append(
            recommendationTable(
                analysis,
                header: ["recommended", "formula", "measured knee", "USL peak N*", "peak tasks/s at N", "basis"],
                numeric: [true, true, true, true, true, false]
            ) { curve, c in
                // No W/C measured (a load tool alone): no formula, rather than one from W/C 0.
                var formula = analysis.hasWaitCPU ? UnitFormat.significant(c.formulaQueueCountExact) : "–"
                if analysis.hasWaitCPU, c.formulaQueueCountStandardError > 0 {
                    formula += " ± " + UnitFormat.significant(c.formulaQueueCountStandardError)
                }
                let usl =
                    curve.usl?.peakConcurrency.map { UnitFormat.significant($0) }
                    ?? (curve.usl != nil ? "no peak" : "not fitted")
                let peak =
                    c.curve.map { "\(UnitFormat.significant($0.peakThroughputPerSecond)) at \($0.peakQueueCount)" }
                    ?? "–"
                return [
                    "**\(c.recommendedQueueCount)**", formula, c.kneeQueueCount.map(String.init) ?? "–", usl, peak,
                    c.basis.rawValue,
                ]
            })
        return blocks + recommendationClose(analysis, r, chart: MermaidChart.throughput(primary))
    }

    /// A recommendation section's paragraph when there is none: what withheld it (failed tasks),
    /// else `otherwise`, the loop's own reason.
    static func noRecommendation(_ analysis: RunAnalysis, otherwise: String) -> ReportDocument.Block {
        .paragraph("No recommendation: \(analysis.run.records.withheldRecommendation ?? otherwise).")
    }

    /// ` with POOL/QOS/PRIMITIVE` after the recommended size when the run compared several
    /// combinations; empty when it ran one.
    static func recommendedCombination(_ analysis: RunAnalysis, _ primary: RunAnalysis.Curve) -> String {
        analysis.curves.count > 1 ? " with \(primary.combination.label)" : ""
    }

    /// Either loop's table of recommendations: a row for each combination with one, its pool,
    /// tier and primitive first, then `cells` of it, which `header` names and `numeric` aligns.
    static func recommendationTable(
        _ analysis: RunAnalysis, header: [String], numeric: [Bool],
        cells: (RunAnalysis.Curve, Recommendation) -> [String]
    ) -> ReportDocument.Block {
        let rows = analysis.curves.compactMap { curve in
            curve.recommendation.map { curve.combination.cells + cells(curve, $0) }
        }
        return .table(
            header: ["pool", "QoS", "primitive"] + header, rows: rows, numeric: [false, false, false] + numeric)
    }

    /// What closes either loop's recommendation section after its table: the recommendation's
    /// reason, its chart, and, when several combinations were compared, the verdict among them.
    static func recommendationClose(_ analysis: RunAnalysis, _ r: Recommendation, chart: String?)
        -> [ReportDocument.Block]
    {
        var blocks: [ReportDocument.Block] = []
        if !r.reason.isEmpty { blocks.append(.paragraph(ReportInline.literal(r.reason))) }
        if let chart { blocks.append(.mermaid(chart)) }
        if let verdict = analysis.run.recommendation?.verdict, !verdict.isEmpty, analysis.curves.count > 1 {
            blocks.append(.paragraph(ReportInline.literal(verdict)))
        }
        return blocks
    }

    /// What each adaptive pool settled on and carried, against the fixed pool's knee.
    static func adaptive(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        guard !analysis.selfSized.isEmpty else { return [] }
        return [
            .heading(level: 2, text: "Adaptive pool"),
            .paragraph(
                "An adaptive pool (`--pool adaptive`, `AdaptiveQueuePool`) chooses its queue count as it runs, at"
                    + " most its maximum (the trial's pool size): it measures each task's C and W, moves to"
                    + " cores × (1 + W/C), and confirms the move by throughput. \"Settled at\" is the size it held"
                    + " longest over the second half of its trials; \"vs knee\" its throughput over the fixed pool's"
                    + " at that pool's knee, measured in the same run. The chart below shows its size and throughput"
                    + " over time."),
            .table(
                header: AdaptiveLines.header, rows: AdaptiveLines.rows(analysis.selfSized),
                numeric: [false, true, true, true, true, true, true, true, true]),
        ]
    }

    static func machine(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        let run = analysis.run
        var rows: [[String]] = []
        let m = run.info?.machine
        if let cores = m?.cores {
            rows.append(["cores", "\(cores.effective) (\(cores.derivation))"])
        } else if let cores = run.cores {
            rows.append(["cores", String(cores)])
        }
        for (fact, value) in [("CPU", m?.cpuModel), ("kernel", m?.kernel), ("Swift", m?.swiftVersion)] {
            if let value, !value.isEmpty { rows.append([fact, ReportInline.literal(value)]) }
        }
        if let slack = m?.timerSlackNanoseconds {
            rows.append(["timer slack", UnitFormat.duration(microseconds: Double(slack) / 1000)])
        }
        if let nice = m?.effectiveNiceByTier, !nice.isEmpty {
            let text = QoSTier.allCases.compactMap { tier in nice[tier.rawValue].map { "\(tier.rawValue) \($0)" } }
                .joined(separator: ", ")
            rows.append(["effective nice by tier", text])
        }
        if let info = run.info {
            if let version = info.poolsizeVersion { rows.append(["poolsize", ReportInline.literal(version)]) }
            if let command = info.commandLine, !command.isEmpty {
                // As it can be typed again: a word with a space or a quote keeps its quotes.
                rows.append(["command", ReportInline.code(ShellWords.join(["poolsize"] + command.dropFirst()))])
            }
            rows.append(["seed", String(info.seed)])
            if let plan = info.plan {
                let counts = RepetitionCounts(asked: plan.repetitions, summaries: analysis.summaries)
                rows.append(["repetitions", "\(counts.phrase), \(plan.warmupTrials) warm-up"])
            }
            if let windows = analysis.windowSentence {
                rows.append(["trial windows", String(windows.dropFirst("trials: ".count))])
            }
        }
        rows.append(["run", ReportInline.code(run.runID) + ", \(run.records.count) trials"])
        return [
            .heading(level: 2, text: "Machine"),
            .table(header: ["fact", "value"], rows: rows, numeric: [false, false]),
        ]
    }

    /// Whose CPU a server's C is: its pool's threads (named, with what all its threads spend),
    /// or all its processes'.
    static func servingPool(_ lowLoad: LowLoadEstimate?) -> String {
        guard let pool = lowLoad?.servingPool, let whole = lowLoad?.processCPUMicrosecondsPerTask else {
            return "its processes burn"
        }
        return
            "the threads of its pool that serves the requests (\(ReportInline.literal(pool)), the threads with the steadily largest CPU; all its threads \(UnitFormat.duration(microseconds: whole))) burn"
    }

    /// What either loop's low-load paragraph says before C and before W: a task's on one worker,
    /// or a server's request with one in flight at size 1, C the CPU of the pool that serves it.
    /// `slices`: say the figures are means over slices of the window (the closed loop's).
    static func lowLoadWords(_ analysis: RunAnalysis, _ lowLoad: LowLoadEstimate?, slices: Bool)
        -> (burns: String, waits: String)
    {
        guard analysis.server != nil else { return ("With one worker a task burns", "and waits") }
        let means = slices ? " (means of \(lowLoad?.tasks ?? 0) slices of the window)" : ""
        return (
            "With one request in flight to the server at size 1\(means), \(servingPool(lowLoad))",
            "per request, and the rest of the time to answer is"
        )
    }

    static func lowLoad(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        guard let r = analysis.run.recommendation?.best ?? analysis.primary?.recommendation else { return [] }
        guard analysis.hasWaitCPU else {
            return [
                .heading(level: 2, text: "W/C at low load"),
                .paragraph("Not measured: " + ConsoleSummary.unmeasuredLowLoad.dropFirst("not measured: ".count) + "."),
            ]
        }
        let (burns, waits) = lowLoadWords(analysis, analysis.run.lowLoad, slices: true)
        var text =
            "\(burns) C = \(UnitFormat.duration(microseconds: analysis.cpuMicrosecondsPerTask ?? .nan)) of CPU \(waits) W = \(UnitFormat.duration(microseconds: analysis.waitMicrosecondsPerTask ?? .nan)): W/C = **\(UnitFormat.significant(r.waitCPURatio))**"
        if let lower = r.waitCPURatioLower, let upper = r.waitCPURatioUpper {
            text += " (95% CI \(UnitFormat.significant(lower))–\(UnitFormat.significant(upper)))"
        }
        if let spec = r.specWaitCPURatio { text += ", against \(UnitFormat.significant(spec)) in the workload spec" }
        if let description = analysis.run.plan?.spec.description, description.hasPrefix("recorded trace") {
            text += " (the spec of a trace: its means; \(ReportInline.literal(description)))"
        }
        text +=
            ". The formula N = cores × U × (1 + W/C) = \(r.cores) × \(UnitFormat.significant(r.targetUtilization)) × (1 + \(UnitFormat.significant(r.waitCPURatio))) = **\(UnitFormat.significant(r.formulaQueueCountExact))** (Goetz, Java Concurrency in Practice §8.2)."
        let search =
            analysis.run.searchLine.map { [ReportDocument.Block.paragraph("Sizes were chosen by an " + $0 + ".")] }
            ?? []
        return [.heading(level: 2, text: "W/C at low load"), .paragraph(text)] + search
    }
}
