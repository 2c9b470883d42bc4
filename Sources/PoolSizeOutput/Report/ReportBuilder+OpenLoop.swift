import PoolSizeAnalysis
import PoolSizeModel

/// The report of an open-loop run: sized for a latency objective at an arrival rate, so its
/// sections are the objective's — the recommendation and its reason, the task's own time and
/// Little's law, an "Open loop" section (arrivals, objective, the verdict per size, the answer
/// per rate of a range, the model against the machine), latency charts, the measurements per
/// rate, and the caveats that apply. The closed loop's knee, formula and USL sections are left
/// out: they describe a pool run flat out, which an open loop's is not.
extension ReportBuilder {
    static func openLoopBlocks(
        _ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop, charts: [Chart], chartsRendered: Bool,
        plotCommand: String
    ) -> [ReportDocument.Block] {
        var blocks: [ReportDocument.Block] = []
        blocks += openLoopRecommendation(analysis, open)
        blocks += server(analysis)
        blocks += database(analysis, open: open)
        blocks += machine(analysis)
        blocks += taskTime(analysis, open)
        blocks += openLoopSection(analysis, open)
        blocks += chartBlocks(charts, chartsRendered: chartsRendered, plotCommand: plotCommand)
        blocks += openLoopMeasurements(analysis, open)
        return blocks
    }

    static func time(_ microseconds: Double) -> String { UnitFormat.duration(microseconds: microseconds) }

    /// A recorded percentile, or – for one not recorded (0).
    static func shown(_ microseconds: Double) -> String { microseconds > 0 ? time(microseconds) : "–" }

    /// `p99 ≤ 40.0 ms`, or `keeping up` without an objective.
    static func goal(_ open: RunAnalysis.OpenLoop) -> String {
        open.arrival.latencySLOMicroseconds.map { "\(open.percentileName) ≤ \(time($0))" } ?? "keeping up"
    }

    static func openLoopRecommendation(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> [ReportDocument.Block]
    {
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Recommendation")]
        guard let primary = analysis.primary, let r = primary.recommendation else {
            blocks.append(
                noRecommendation(
                    analysis,
                    otherwise:
                        "the run has no valid open-loop trials with low-load W and C beside them (lowload.json missing or no valid trial)"
                ))
            return blocks
        }
        let what = recommendedCombination(analysis, primary)
        let rate = UnitFormat.rate(r.latency?.arrivalRate ?? open.topRate)
        let arrivals = "\(open.arrival.process.rawValue) arrivals"
        if r.latency?.met == true {
            let basis =
                open.arrival.latencySLOMicroseconds.map {
                    "the smallest size whose \(open.percentileName) latency, counted from each task's intended arrival, met the \(time($0)) objective"
                }
                ?? "the smallest size that kept up with the arrivals"
            blocks.append(
                .paragraph(
                    "**\(r.recommendedQueueCount) queues**\(what) for the \(ReportInline.literal(r.workload)) workload at \(rate) (\(arrivals)) on \(r.cores) cores: \(basis)."
                ))
        } else {
            blocks.append(
                .paragraph(
                    "**No size measured met the objective** (\(goal(open)) at \(rate), \(arrivals)) for the \(ReportInline.literal(r.workload)) workload on \(r.cores) cores; \(r.recommendedQueueCount) is only the largest size measured. The reason below says what would meet it."
                ))
        }
        blocks.append(
            recommendationTable(
                analysis,
                header: [
                    "recommended", "\(open.percentileName) there", "objective", "verdict", "queueing model", "basis",
                ],
                numeric: [true, true, false, false, true, false]
            ) { _, c in
                [
                    c.latency?.met == true
                        ? "**\(c.recommendedQueueCount)**" : "none (largest \(c.recommendedQueueCount))",
                    c.latency?.measuredMicroseconds.map(time) ?? "–", goal(open),
                    c.latency?.met == true ? "met" : "missed",
                    c.latency?.queueingModelQueueCount.map(String.init) ?? "none", c.basis.rawValue,
                ]
            })
        return blocks + recommendationClose(analysis, r, chart: MermaidChart.openLoopLatency(open, primary))
    }

    static func taskTime(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> [ReportDocument.Block] {
        guard let lowLoad = analysis.run.lowLoad else { return [] }
        let service = lowLoad.cpuMicrosecondsPerTask + lowLoad.waitMicrosecondsPerTask
        let (burns, waits) = lowLoadWords(analysis, lowLoad, slices: false)
        var text =
            "\(burns) C = \(time(lowLoad.cpuMicrosecondsPerTask)) of CPU \(waits) W = \(time(lowLoad.waitMicrosecondsPerTask)) (W/C = \(UnitFormat.significant(lowLoad.waitCPURatio)))."
        if let own = lowLoad.taskTime {
            text +=
                " Its own time C + W is p50 \(time(own.p50)) and \(open.percentileName) \(time(SLOSizer.value(own, percentile: open.arrival.sloPercentile))): the least latency any pool size can give."
        }
        if service > 0, let low = open.rates.first, let high = open.rates.last {
            let busy = { (rate: ArrivalRate) in UnitFormat.significant(rate.arrivals(in: service / 1e6)) }
            text +=
                open.isRange
                ? " Little's law puts the queues busy on average at rate × (C + W): \(busy(low)) at \(UnitFormat.rate(low)) to \(busy(high)) at \(UnitFormat.rate(high)); a pool with fewer cannot keep up."
                : " Little's law puts the queues busy on average at rate × (C + W) = **\(busy(high))** at \(UnitFormat.rate(high)); a pool with fewer cannot keep up."
        }
        return [.heading(level: 2, text: "Task time at low load"), .paragraph(text)]
    }

    static func openLoopSection(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> [ReportDocument.Block] {
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Open loop")]
        let process: String
        switch open.arrival.process {
        case .poisson:
            process = "the intended times of a seeded Poisson process (exponential gaps, as independent users arrive)"
        case .uniform: process = "evenly spaced intended times (one every 1/rate seconds, as a timer feeds work)"
        case .tool:
            process =
                "the times the load tool chose, given the rate (its latency counts from when it sent each request, which is the intended time while it drops none; what it offered and carried are its own counts)"
        }
        let rates =
            open.isRange
            ? "\(open.rates.count) rates from \(UnitFormat.rate(open.rates.first!)) to \(UnitFormat.rate(open.rates.last!)) (\(open.rates.map { UnitFormat.number($0.perSecond) }.joined(separator: ", ")) per second)"
            : UnitFormat.rate(open.topRate)
        var text =
            "Tasks arrived at \(process), at \(rates), whatever the pool was doing. Latency counts from each task's intended arrival, so time spent queued behind a busy pool is in it."
        text +=
            " A size **keeps up** when it carried at least \(UnitFormat.percent(OpenLoopFigures.carriedShare)) of the arrivals (less one standard deviation of the tasks in service at the window's edges, √(2 × rate × service time))"
            + (open.arrival.process == .tool
                ? "; a load tool reports no backlog, so none is judged"
                : " and its backlog did not grow across the window by more than the pool size")
        if let slo = open.arrival.latencySLOMicroseconds {
            text +=
                "; it **meets the objective**, \(open.percentileName) ≤ \(time(slo)), when it keeps up and the \(open.percentileName) of its worst repetition is within it. The recommendation is the smallest size from which on every size measured meets it."
        } else {
            text +=
                ". No latency objective was given: the recommendation is the smallest size from which on every size measured keeps up."
        }
        blocks.append(.paragraph(text))
        let combinations = analysis.curves.map(\.combination)
        for combination in combinations {
            let tables = open.tables(combination)
            guard let top = tables.first(where: { $0.arrivalRate == open.topRate }) else { continue }
            let label = combinations.count > 1 ? " (\(combination.label))" : ""
            blocks.append(.heading(level: 3, text: "Verdict per size at \(UnitFormat.rate(top.arrivalRate))\(label)"))
            let recommended = analysis.curves.first { $0.combination == combination }?.recommendation.flatMap {
                $0.latency?.met == true ? $0.recommendedQueueCount : nil
            }
            blocks.append(verdictTable(top, open: open, recommended: recommended))
            if open.isRange {
                blocks.append(.heading(level: 3, text: "Recommended size per rate\(label)"))
                blocks.append(rateTable(tables, open: open))
                blocks.append(.heading(level: 3, text: "\(open.percentileName) by size and rate\(label)"))
                blocks.append(matrix(tables, open: open))
            }
            blocks.append(.paragraph(modelSentence(tables, open: open, recommended: recommended)))
        }
        return blocks
    }

    /// `met, 16.7 ms (41.8%) under`, `missed by 3.00 ms (7.5%)`, `fell behind`.
    static func verdictText(_ v: SLOVerdict, open: RunAnalysis.OpenLoop) -> (verdict: String, margin: String) {
        guard v.stable else {
            let carried = v.offeredPerSecond > 0 ? min(v.achievedPerSecond / v.offeredPerSecond, 1) : 0
            return ("fell behind", "carried \(UnitFormat.percentOneDecimal(carried)) of the arrivals")
        }
        guard let slo = open.arrival.latencySLOMicroseconds else { return ("kept up", "–") }
        let gap = v.percentileMicroseconds - slo
        return gap <= 0
            ? ("**met**", "\(time(-gap)) (\(UnitFormat.percentOneDecimal(-gap / slo))) under")
            : ("missed", "\(time(gap)) (\(UnitFormat.percentOneDecimal(gap / slo))) over")
    }

    static func verdictTable(_ table: OpenLoopRateTable, open: RunAnalysis.OpenLoop, recommended: Int?)
        -> ReportDocument.Block
    {
        let name = open.percentileName
        let rows = table.verdicts.map { v -> [String] in
            let (verdict, margin) = verdictText(v, open: open)
            return [
                String(v.poolSize), UnitFormat.significant(v.offeredPerSecond),
                UnitFormat.significant(v.achievedPerSecond),
                UnitFormat.significant(v.backlogMean.isFinite ? v.backlogMean : nil), time(v.p50Microseconds),
                (v.stable ? "" : "≥ ") + time(v.percentileMicroseconds),
                v.modelPercentileMicroseconds.map(time) ?? "–", verdict, margin,
                v.poolSize == recommended ? "**recommended**" : "",
            ]
        }
        return .table(
            header: [
                "N", "offered/s", "carried/s", "backlog", "p50", "\(name) (worst)", "model \(name)", "verdict",
                "margin", "",
            ],
            rows: rows, numeric: [true, true, true, true, true, true, true, false, false, false])
    }

    static func rateTable(_ tables: [OpenLoopRateTable], open: RunAnalysis.OpenLoop) -> ReportDocument.Block {
        let rows = tables.map { t -> [String] in
            let pick = t.recommendedQueueCount.flatMap(t.verdict)
            return [
                UnitFormat.rate(t.arrivalRate), pick.map { "**\($0.poolSize)**" } ?? "none measured",
                pick.map { time($0.percentileMicroseconds) } ?? "–",
                t.queueingModelQueueCount.map(String.init) ?? "none",
                pick.flatMap { p in t.queueingModelQueueCount.map { signedSteps(p.poolSize - $0) } } ?? "–",
            ]
        }
        return .table(
            header: ["rate", "recommended", "\(open.percentileName) there", "queueing model", "measured − model"],
            rows: rows, numeric: [true, true, true, true, true])
    }

    static func signedSteps(_ delta: Int) -> String { delta > 0 ? "+\(delta)" : String(delta) }

    /// Sizes down, rates across: each cell the percentile and whether it met the objective.
    static func matrix(_ tables: [OpenLoopRateTable], open: RunAnalysis.OpenLoop) -> ReportDocument.Block {
        let sizes = Set(tables.flatMap { $0.verdicts.map(\.poolSize) }).sorted()
        let rows = sizes.map { size -> [String] in
            ["N = \(size)"]
                + tables.map { t in
                    guard let v = t.verdict(size) else { return "–" }
                    if !v.stable { return "≥ \(time(v.percentileMicroseconds)), fell behind" }
                    guard let met = v.meetsSLO else { return time(v.percentileMicroseconds) }
                    return time(v.percentileMicroseconds) + (met ? " ✓" : " ✗")
                }
        }
        return .table(
            header: ["size"] + tables.map { UnitFormat.rate($0.arrivalRate) }, rows: rows,
            numeric: [false] + tables.map { _ in true })
    }

    /// How the queueing model compares with the measurement: its count against the recommended
    /// one, and the range of measured / modelled percentiles where both have a figure.
    static func modelSentence(_ tables: [OpenLoopRateTable], open: RunAnalysis.OpenLoop, recommended: Int?) -> String {
        let name = open.percentileName
        var text =
            "The queueing model (Poisson arrivals, exponential task times of the low-load mean C + W, one shared queue: M/M/c, plus the task's own \(name)) "
        if open.isRange {
            let pairs = tables.map { t in
                (
                    t.recommendedQueueCount.map(String.init) ?? "none",
                    t.queueingModelQueueCount.map(String.init) ?? "none"
                )
            }
            text +=
                "asks for \(pairs.map(\.1).joined(separator: ", ")) queues at the \(tables.count) rates; the measurement found \(pairs.map(\.0).joined(separator: ", "))."
            let agree = tables.filter {
                $0.recommendedQueueCount != nil && $0.recommendedQueueCount == $0.queueingModelQueueCount
            }.count
            text += " They agree at \(agree) of \(tables.count) rates."
        } else if let t = tables.first {
            let model = t.queueingModelQueueCount
            text +=
                "asks for \(model.map { "\($0) queues" } ?? "no size (none meets it)") at \(UnitFormat.rate(t.arrivalRate)); "
            switch (recommended, model) {
            case let (measured?, model?) where measured == model: text += "the measurement agrees."
            case let (measured?, model?) where measured > model:
                text += "the measurement recommends \(measured), \(measured - model) more"
                if let v = t.verdict(model) {
                    text +=
                        ": at \(model) the machine "
                        + (v.stable
                            ? "gave \(time(v.percentileMicroseconds)), "
                                + (v.meetsSLO == false ? "missing the objective" : "but a size between did not pass")
                            : "fell behind") + "."
                } else {
                    text +=
                        " (\(model) was not measured: the sizes were \(UnitFormat.sizes(t.verdicts.map(\.poolSize))))."
                }
            case let (measured?, model?):
                text +=
                    "the measurement recommends \(measured), \(model - measured) fewer: the machine does better there than the model expects."
            case let (measured?, nil): text += "the measurement recommends \(measured)."
            case (nil, _): text += "no size measured met it."
            }
        }
        let ratios = tables.flatMap(\.verdicts).compactMap { v -> Double? in
            guard v.stable, let model = v.modelPercentileMicroseconds, model > 0 else { return nil }
            return v.percentileMicroseconds / model
        }
        if let low = ratios.min(), let high = ratios.max() {
            text +=
                " Where both have a figure (sizes that kept up and that the model says can), the measured \(name) is \(UnitFormat.significant(low))–\(UnitFormat.significant(high))× the model's"
            text +=
                high < 0.8
                ? ": the machine does better than M/M/c, as task times less variable than exponential do."
                : low > 1.25
                    ? ": the machine does worse than M/M/c (CPU contention, scheduling, or the dispatcher add to the wait)."
                    : "."
        }
        return text
    }

    static func openLoopMeasurements(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> [ReportDocument.Block] {
        let (opening, curves) = measurementsOpening(analysis)
        var blocks = opening
        blocks.append(
            .paragraph(
                "Latency percentiles are the worst repetition's, from each task's intended arrival; backlog is tasks arrived and not finished; lag is how late the dispatcher handed tasks to the pool (99th percentile, already inside the latencies)."
                    + (open.arrival.process == .tool
                        ? " The load tool's trials have Little's law's backlog (carried × its mean latency); their backlog's maximum, unfinished tasks and lag are not measured (–), nor is a percentile it did not print."
                        : "")
            ))
        for curve in curves {
            for rate in open.rates {
                let rows = open.summaries.filter { $0.combination == curve.combination && $0.arrivalRate == rate }
                guard !rows.isEmpty else { continue }
                let label = analysis.curves.count > 1 ? "\(curve.combination.label) at " : "At "
                blocks.append(.heading(level: 3, text: label + UnitFormat.rate(rate)))
                let header = [
                    "N", "reps", "carried/s", "p50", "p90", "p99", "p99.9", "max", "backlog mean", "backlog max",
                    "unfinished", "lag p99", "CPU util",
                ]
                let table = rows.map { s -> [String] in
                    // A load tool's trials have no backlog seen arrival by arrival.
                    let o = s.openLoop, seen = s.openLoop.flatMap { $0.backlogMeasured ? $0 : nil }
                    let l = o?.worstLatency ?? LatencyPercentiles()
                    return [
                        String(s.poolSize), String(s.throughput.count),
                        UnitFormat.significant(o?.achievedPerSecond ?? s.throughput.mean),
                        // 0 is a percentile the tool did not print: no latency is 0.
                        shown(l.p50), shown(l.p90), shown(l.p99), shown(l.p999), shown(l.max),
                        UnitFormat.significant(o.flatMap { $0.backlogMean.isFinite ? $0.backlogMean : nil }),
                        seen.map { String($0.backlogMax) } ?? "–",
                        seen.map { String($0.unfinished) } ?? "–",
                        seen.map { time($0.dispatchLagP99Microseconds) } ?? "–", UnitFormat.wholePercent(s.utilization),
                    ]
                }
                blocks.append(.table(header: header, rows: table, numeric: header.map { _ in true }))
            }
        }
        return blocks
    }
}
