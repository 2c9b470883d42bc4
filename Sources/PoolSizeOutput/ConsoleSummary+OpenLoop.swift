import PoolSizeAnalysis
import PoolSizeModel

extension ConsoleSummary {
    /// An open-loop run after the low-load line: the arrivals and objective, one table per rate
    /// (size, offered and carried rate, stability, latency from intended arrival, backlog, the
    /// model's percentile, the verdict), the recommendation and its reason, the rate → size
    /// table of a range, and the caveats that apply to an open loop.
    static func openLoop(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop, lowLoad: LowLoadEstimate) -> String {
        let name = open.percentileName
        var out = ""
        if let own = lowLoad.taskTime {
            out +=
                "a task alone (C + W at low load): p50 \(time(own.p50)), \(name) \(time(SLOSizer.value(own, percentile: open.arrival.sloPercentile)))\n"
        }
        out += "open loop: \(arrivals(open)); " + objective(open) + "\n"
        let file = analysis.run.recommendation
        let best = file?.best ?? analysis.primary?.recommendation
        let combination = best?.combination ?? analysis.primary?.combination
        if let file, file.combinations.count > 1, let combination { out += "\nbest combination \(combination):\n" }
        let service = (lowLoad.cpuMicrosecondsPerTask + lowLoad.waitMicrosecondsPerTask) / 1e6
        for table in combination.map(open.tables) ?? [] {
            let top = table.arrivalRate == open.topRate
            out += "\nat \(UnitFormat.rate(table.arrivalRate))"
            if service > 0 {
                out += " (Little's law: \(fmt(table.arrivalRate.arrivals(in: service))) queues busy on average)"
            }
            out +=
                "\n"
                + rateTable(
                    table, open: open,
                    recommended: top
                        ? best.flatMap { $0.latency?.met == true ? $0.recommendedQueueCount : nil }
                        : table.recommendedQueueCount, top: top)
        }
        out += adaptiveLines(analysis, open)
        out += openLoopDatabase(analysis, combination: combination)
        guard let best else {
            let why = analysis.run.records.noRecommendationCause ?? "low-load W and C are missing"
            return out + "\nno recommendation: \(why)\n" + warnings(analysis)
        }
        if let file, file.combinations.count > 1 {
            out += "\n" + openLoopCombinationTable(file.combinations, best: best, open: open) + file.verdict + "\n"
        }
        out += "\n" + recommendationLine(best, open: open) + "\n" + best.reason + "\n"
        let rules = analysis.openLoopRulesOfThumb(open)
        if !rules.isEmpty, let heading = analysis.ruleSet?.heading {
            out += "\n\(heading), measured in this run:\n"
            out += rules.map { "  \($0.sentence)\n" }.joined()
        }
        let warnings = warnings(analysis)
        if open.isRange {
            out +=
                "\nrate → recommended size:\n" + rateSizingTable(open.tables(best.combination), open: open)
                + (warnings.isEmpty ? "" : "\n")
        }
        return out + warnings
    }

    /// One line per adaptive pool, rate and maximum: it sizes itself, so it has no
    /// recommendation, but what it carried and its percentile at each rate stand beside the
    /// fixed pools' tables.
    static func adaptiveLines(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> String {
        let adaptive = Set(analysis.run.records.map(\.combination)).filter { $0.pool.sizeOwner == .pool }
            .sorted { $0.description < $1.description }
        var lines = ""
        for combination in adaptive {
            for table in open.tables(combination) {
                for v in table.verdicts {
                    lines +=
                        "\(combination), at most \(v.poolSize) queue\(v.poolSize == 1 ? "" : "s"), at \(UnitFormat.rate(table.arrivalRate)): carried \(fmt(v.achievedPerSecond))/s, \(open.percentileName) \(time(v.percentileMicroseconds)), \(v.stable ? "stable" : "not stable")"
                    if let met = v.meetsSLO { lines += met ? ", objective met" : ", objective not met" }
                    lines += " (it sizes itself: no recommendation of its own)\n"
                }
            }
        }
        return lines.isEmpty ? "" : "\n" + lines
    }

    static func warnings(_ analysis: RunAnalysis) -> String {
        ReportCaveats.caveats(analysis).map { "warning: " + ReportInline.plain($0) + "\n" }.joined()
    }

    /// `poisson arrivals at 1000/s`, `uniform arrivals at 500/s to 1500/s (3 rates)`.
    static func arrivals(_ open: RunAnalysis.OpenLoop) -> String {
        let rates = open.rates
        guard let low = rates.first, let high = rates.last, rates.count > 1 else {
            return "\(open.arrival.process.rawValue) arrivals at \(UnitFormat.rate(open.topRate))"
        }
        return
            "\(open.arrival.process.rawValue) arrivals at \(UnitFormat.rate(low)) to \(UnitFormat.rate(high)) (\(rates.count) rates)"
    }

    /// `objective p99 ≤ 40.0 ms from each task's intended arrival`, or the stability goal.
    static func objective(_ open: RunAnalysis.OpenLoop) -> String {
        guard let slo = open.arrival.latencySLOMicroseconds else {
            return
                "no latency objective: the smallest size that keeps up (carries ≥ \(UnitFormat.percent(OpenLoopFigures.carriedShare)) of the arrivals, give or take the tasks in service at the window's edges, backlog not growing)"
        }
        return "objective \(open.percentileName) ≤ \(time(slo)), from each task's intended arrival"
    }

    /// - Parameters:
    ///   - recommended: the size to mark at this rate; nil marks none.
    ///   - top: whether this is the rate the recommendation is for.
    static func rateTable(_ table: OpenLoopRateTable, open: RunAnalysis.OpenLoop, recommended: Int?, top: Bool)
        -> String
    {
        let name = open.percentileName
        var rows = [
            ["size", "offered/s", "carried/s", "stable", "p50", name, "backlog", "model \(name)", "SLO met", ""]
        ]
        for v in table.verdicts {
            let mark = v.poolSize == recommended ? (top ? "◀ recommended" : "◀ enough at this rate") : ""
            rows.append([
                String(v.poolSize), fmt(v.offeredPerSecond), fmt(v.achievedPerSecond), v.stable ? "yes" : "no",
                time(v.p50Microseconds), (v.stable ? "" : "≥ ") + time(v.percentileMicroseconds),
                // A load tool that printed no mean latency gives no backlog (NaN).
                v.backlogMean.isFinite ? fmt(v.backlogMean) : "–",
                v.modelPercentileMicroseconds.map(time) ?? "–", v.meetsSLO.map { $0 ? "yes" : "no" } ?? "–", mark,
            ])
        }
        return align(rows, left: [3, 8])
    }

    /// `recommended queue count: 20  (p99 38.8 ms ≤ 40.0 ms at 1000/s; queueing model 19)`.
    static func recommendationLine(_ r: Recommendation, open: RunAnalysis.OpenLoop) -> String {
        let rate = UnitFormat.rate(r.latency?.arrivalRate ?? open.topRate)
        let model = "queueing model " + (r.latency?.queueingModelQueueCount.map(String.init) ?? "none")
        guard r.latency?.met == true else {
            let goal = r.latency?.latencySLOMicroseconds.map { "\(open.percentileName) ≤ \(time($0))" } ?? "keeping up"
            return
                "no size measured met the objective (\(goal) at \(rate)); largest measured \(r.recommendedQueueCount)  (\(model))"
        }
        let measured = r.latency?.measuredMicroseconds.map(time) ?? "–"
        if let slo = r.latency?.latencySLOMicroseconds {
            return
                "recommended queue count: \(r.recommendedQueueCount)  (\(open.percentileName) \(measured) ≤ \(time(slo)) at \(rate); \(model))"
        }
        return
            "recommended queue count: \(r.recommendedQueueCount)  (smallest that keeps up with \(rate), \(open.percentileName) \(measured); \(model))"
    }

    static func rateSizingTable(_ tables: [OpenLoopRateTable], open: RunAnalysis.OpenLoop) -> String {
        var rows = [
            [
                "rate/s", "recommended", open.percentileName, "model",
                open.arrival.latencySLOMicroseconds == nil ? "kept up" : "SLO met",
            ]
        ]
        for t in tables {
            let pick = t.recommendedQueueCount.flatMap(t.verdict)
            rows.append([
                UnitFormat.number(t.arrivalRate.perSecond), pick.map { String($0.poolSize) } ?? "none measured",
                pick.map { time($0.percentileMicroseconds) } ?? "–", t.queueingModelQueueCount.map(String.init) ?? "–",
                pick == nil ? "no" : "yes",
            ])
        }
        return align(rows)
    }

    static func openLoopCombinationTable(_ all: [Recommendation], best: Recommendation, open: RunAnalysis.OpenLoop)
        -> String
    {
        var rows = [["combination", "queues", "met", open.percentileName, "model", "integrity"]]
        for r in all {
            rows.append([
                r.combination.description + (r.combination == best.combination ? " (best)" : ""),
                String(r.recommendedQueueCount),
                r.latency?.met == true ? "yes" : "no", r.latency?.measuredMicroseconds.map(time) ?? "–",
                r.latency?.queueingModelQueueCount.map(String.init) ?? "–", r.integrity.rawValue,
            ])
        }
        return align(rows)
    }
}
