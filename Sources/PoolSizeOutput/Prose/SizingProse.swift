import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

/// The sentences that explain a recommendation, worded from the findings Analysis returns
/// (`SizingExplanation`) through the one formatter (`UnitFormat`): a recommendation's `reason` and
/// a set's `verdict`. Everything that recommends (a sweep, a report of a stopped run) words its
/// result here.
package enum SizingProse {
    /// `set` with every recommendation's reason and the set's verdict written, advice naming
    /// settings as `spelling` does (the command's flags unless told otherwise).
    package static func worded(_ set: RecommendationSet, spelling: SettingSpelling = .flags) -> RecommendationSet {
        let combinations = set.combinations.map { worded($0, spelling: spelling) }
        let best =
            combinations.first { $0.combination == set.best.combination } ?? worded(set.best, spelling: spelling)
        return RecommendationSet(
            best: best, combinations: combinations, verdict: verdict(best: best, all: combinations))
    }

    /// `r` with its reason written from its findings; as it is when it has none (read from a file).
    package static func worded(_ r: Recommendation, spelling: SettingSpelling = .flags) -> Recommendation {
        guard let explanation = r.explanation else { return r }
        var worded = r
        switch explanation {
        case let .knee(knee, peakMayLieBeyond, basis):
            if let curve = r.curve { worded.reason = sentence(knee, r, curve, basis: basis, spelling: spelling) }
            if let largest = peakMayLieBeyond {
                worded.reason +=
                    " Throughput was still rising at the largest size measured (\(largest)), so the peak, and with it the knee, may lie further out: measure larger sizes to be sure."
            }
            if let usl = r.usl, let peak = usl.peakConcurrency {
                worded.reason +=
                    " The USL fit (σ \(UnitFormat.significant(usl.sigma)), κ \(UnitFormat.scientific(usl.kappa)), R² \(UnitFormat.fixed(usl.rSquared, decimals: 3))) puts peak throughput at N* = \(UnitFormat.significant(peak))."
            }
        case let .arrivals(found):
            if let sizing = r.latency { worded.reason = sentence(found, sizing, spelling: spelling) }
        }
        return worded
    }

    /// One line naming the best combination and how the others compare.
    static func verdict(best: Recommendation, all: [Recommendation]) -> String {
        let others = all.filter { $0.combination != best.combination }
        if let sizing = best.latency {
            let goal = goal(sizing)
            let met = sizing.met ? "" : "nothing met \(goal); largest measured "
            var verdict =
                "Best: \(best.combination), \(met)\(best.recommendedQueueCount) queues at \(UnitFormat.significant(sizing.arrivalRate.perSecond))/s (\(goal))."
            let rest = others.map { r in
                "\(r.combination) \(r.latency?.met == true ? "\(r.recommendedQueueCount) queues" : "none met it")"
            }
            if !rest.isEmpty { verdict += " Others: " + rest.joined(separator: "; ") + "." }
            return verdict
        }
        var verdict =
            "Best: \(best.combination), peak \(UnitFormat.significant(peak(best))) tasks/s, \(best.recommendedQueueCount) queues."
        let rest = others.sorted { peak($0) > peak($1) }.map { r in
            let lower = (1 - peak(r) / peak(best)) * 100
            return
                "\(r.combination) \(UnitFormat.fixed(lower, decimals: 1))% lower peak, \(r.recommendedQueueCount) queues"
        }
        if !rest.isEmpty { verdict += " Others: " + rest.joined(separator: "; ") + "." }
        return verdict
    }

    /// The peak throughput of `r`'s curve, tasks/s (a closed loop's answer always has one).
    static func peak(_ r: Recommendation) -> Double { r.curve?.peakThroughputPerSecond ?? 0 }

    /// `p99 ≤ 40.0 ms`, or `keeping up` without an objective.
    static func goal(_ sizing: LatencySizing) -> String {
        sizing.latencySLOMicroseconds.map { "p\(UnitFormat.number(sizing.sloPercentile)) ≤ \(time($0))" }
            ?? "keeping up"
    }

    static func time(_ microseconds: Double) -> String { UnitFormat.duration(microseconds: microseconds) }

    /// Why the knee and the formula agree or not.
    static func sentence(
        _ knee: KneeExplanation, _ r: Recommendation, _ curve: Recommendation.ThroughputCurve,
        basis: Knee.Basis = .nearPeak, spelling: SettingSpelling = .flags
    ) -> String {
        let sizes = spelling.name(.sizes)
        let formula =
            "the formula gives \(UnitFormat.significant(r.formulaQueueCountExact)) (\(r.cores) cores × U \(UnitFormat.significant(r.targetUtilization)) × (1 + W/C \(UnitFormat.significant(r.waitCPURatio))))"
        // Below U = 1 the knee is where the curve reaches U × (1 − tolerance) of its peak.
        let reach =
            r.targetUtilization < 1
            ? "reach \(UnitFormat.percent(r.targetUtilization * (1 - curve.tolerance))) of"
            : "reach within \(UnitFormat.percent(curve.tolerance)) of"
        let kneeText: String
        switch basis {
        case .nearPeak:
            kneeText =
                "\(curve.kneeQueueCount) queues \(reach) the peak \(UnitFormat.significant(curve.peakThroughputPerSecond)) tasks/s"
        case .flattened:
            // The peak is more than the tolerance above the knee: say so, and why it is not the knee.
            kneeText =
                "throughput stops rising at \(curve.kneeQueueCount) queues (\(UnitFormat.significant(curve.kneeThroughputPerSecond)) tasks/s; no doubling past them adds \(UnitFormat.percent(curve.tolerance)) more than the repetitions' spread, though a slow creep reaches \(UnitFormat.significant(curve.peakThroughputPerSecond)) tasks/s at \(curve.peakQueueCount))"
        }
        let busy = { (utilization: Double) in "\(UnitFormat.significant(utilization * 100))%" }
        switch knee {
        case let .stillRising(largest, suggested):
            return
                "Throughput was still rising at the largest size measured (\(largest)), so there is no knee yet; \(formula) and the recommendation is \(r.recommendedQueueCount). Measure larger sizes (\(sizes) 1...\(suggested)) to locate the knee."
        case let .stillRisingAtLimit(largest, limit):
            let cap =
                r.formulaQueueCount > limit
                ? "\(formula), past the limit, so the recommendation is \(limit)"
                : "\(formula) and the recommendation is \(r.recommendedQueueCount)"
            guard largest < limit else {
                return
                    "Throughput was still rising at \(largest), the most connections the server allows, so no knee could be measured; \(cap)."
            }
            return
                "Throughput was still rising at the largest size measured (\(largest)), so there is no knee yet; the server allows \(limit) connections and \(cap). Measure up to that limit (\(sizes) 1...\(limit)) to locate the knee."
        case let .agree(gap):
            return "Measured and predicted agree: \(kneeText), and \(formula), \(UnitFormat.percent(gap)) apart."
        case let .tooCoarse(below, above, step):
            return
                "The sizes measured are too coarse to test the formula: \(kneeText), but nothing was measured between \(below) and \(above), where \(formula); measure that range (\(sizes) \(below)...\(above):\(step)) to find the knee."
        case let .overPredictedConcurrency(maxReached):
            return
                "The formula over-predicts: \(kneeText), but the pool never ran more than \(maxReached) tasks at once, so larger sizes add nothing; \(formula)."
        case let .overPredictedSerialization(utilization):
            return
                "The formula over-predicts: \(kneeText) while CPU utilization is only \(busy(utilization)), so something other than CPU (a lock or other serialization) caps throughput; \(formula)."
        case let .overPredictedInterpreterLock(utilization, lock):
            return
                "The formula over-predicts: \(kneeText) while CPU utilization is only \(busy(utilization)): \(lockClause(lock, r)); \(formula)."
        case let .overPredictedCPU(utilization, cpu):
            return
                "The formula over-predicts: \(kneeText), where the CPU is already \(busy(utilization)) busy; each task costs \(UnitFormat.significant(cpu)) µs of CPU under load against \(UnitFormat.significant(r.cpuMicrosecondsPerTask)) µs alone, and the machine's other work and scheduling overhead take the rest; \(formula)."
        case let .underPredictedCores(utilization):
            return
                "The formula under-predicts: \(kneeText), using \(busy(utilization)) of \(r.cores) cores, so more CPU is available than the core count assumed; \(formula)."
        case let .underPredictedQueueing(model):
            return
                "The formula under-predicts: \(kneeText); the formula assumes CPU bursts never collide, but tasks that arrive at a busy CPU wait, so more queues are needed to keep it busy; \(formula), and a queueing model with random task times (M/M/\(r.cores)//N) puts the knee at \(model)."
        case let .withoutWaitCPU(largest):
            let none =
                "no W/C was measured (a load tool run alone prints no CPU time per request), so the formula cores × U × (1 + W/C) has nothing to be set against"
            guard let largest else { return "Measured: \(kneeText); \(none)." }
            return
                "Throughput was still rising at the largest size measured (\(largest)), so there is no knee yet and the recommendation is that size; \(none). Measure larger sizes (\(sizes) up to \(2 * largest)) to locate the knee."
        case .underPredictedWait:
            return
                "The formula under-predicts: \(kneeText); under load tasks wait longer than the \(UnitFormat.significant(r.waitMicrosecondsPerTask)) µs measured alone, so more queues are needed to keep the CPU busy; \(formula)."
        }
    }

    /// How an open loop was sized at its rate, and what the sizes that failed lacked.
    static func sentence(_ found: ArrivalExplanation, _ sizing: LatencySizing, spelling: SettingSpelling = .flags)
        -> String
    {
        let arrival = found.arrival
        let rate = sizing.arrivalRate.perSecond
        let name = SLOSizer.name(percentile: arrival.sloPercentile)
        let service = found.serviceSeconds
        let at = "At \(UnitFormat.significant(rate))/s (\(arrival.process.rawValue) arrivals)"
        let little =
            "Little's law puts the average busy queues at \(UnitFormat.significant(rate * service)) (rate × C + W of \(time(service * 1e6)) at low load)"
        let queueing = "the queueing model (the task's own \(name) plus M/M/c's wait for a free queue)"
        let model =
            sizing.queueingModelQueueCount.map { "\(queueing) asks for \($0)" }
            ?? "\(queueing) finds no size that meets it"
        let missed =
            found.failing.isEmpty
            ? ""
            : " Smaller sizes did not: " + found.failing.map { shortfall($0, arrival: arrival) }.joined(separator: "; ")
                + "."
        if let chosen = found.chosen {
            let what: String
            if let slo = arrival.latencySLOMicroseconds {
                let trials = chosen.trials == 1 ? "1 trial" : "worst of \(chosen.trials) trials"
                what =
                    "\(chosen.poolSize) queues keep \(name) latency at \(time(chosen.percentileMicroseconds)) (\(trials)), within the \(time(slo)) objective, counted from each task's intended arrival."
            } else {
                what =
                    "\(chosen.poolSize) queues are the smallest that keep up (\(name) latency \(time(chosen.percentileMicroseconds)), from each task's intended arrival)."
            }
            let later =
                found.largerFailed
                ? " A larger size measured did not pass: noise, or more queues slowing what the tasks share (a lock, the cores, the server they call); repeat with more \(spelling.name(.repetitions)) to tell."
                : ""
            return "\(at), \(what)\(missed) \(little); \(model).\(later)"
        }
        if let slo = arrival.latencySLOMicroseconds, let own = found.ownPercentileMicroseconds {
            return
                "\(at), no size met the \(time(slo)) \(name) objective, and none can: a task alone takes \(time(own)) at its \(name) (C + W at low load), longer than the objective allows; queues only add to that. Relax the objective or make the task faster.\(missed)"
        }
        let largest = found.largest
        var advice = "measure larger sizes (\(spelling.name(.sizes)) \(largest)...\(max(largest * 2, largest + 4)))"
        if let nearest = found.nearest {
            let around = "\(max(1, nearest.poolSize / 2))...\(nearest.poolSize * 2)"
            advice =
                "\(nearest.poolSize) came nearest (\(name) \(time(nearest.percentileMicroseconds))) and larger sizes did worse: more queues slow what the tasks share (a lock, the cores, the server they call), so larger sizes will not help; relax the objective, lower the rate, or measure around \(nearest.poolSize) (\(spelling.name(.sizes)) \(around)) with \(spelling.name(.repetitions)) 3"
        } else if let sustainable = found.sustainableRate {
            advice =
                "\(largest) queues would meet it at about \(UnitFormat.significant(sustainable))/s by the queueing model, or "
                + advice
        }
        let objective = arrival.latencySLOMicroseconds.map { " (\(name) ≤ \(time($0)))" } ?? " of keeping up"
        return
            "\(at), no size up to \(largest) met the objective\(objective).\(missed) \(little); \(model). \(advice.prefix(1).uppercased() + advice.dropFirst())."
    }

    /// What a size that did not pass lacked, in a few words.
    static func shortfall(_ v: SLOVerdict, arrival: ArrivalPlan) -> String {
        let name = SLOSizer.name(percentile: arrival.sloPercentile)
        if !v.stable {
            let carried = v.offeredPerSecond > 0 ? v.achievedPerSecond / v.offeredPerSecond : 0
            return
                "\(v.poolSize) fell behind (carried \(UnitFormat.fixed(min(carried, 1) * 100, decimals: 1))% of the arrivals, \(name) at least \(time(v.percentileMicroseconds)))"
        }
        guard let slo = arrival.latencySLOMicroseconds else { return "\(v.poolSize) kept up" }
        let over = v.percentileMicroseconds - slo
        return
            "\(v.poolSize) kept up but its \(name) was \(time(v.percentileMicroseconds)), \(time(over)) (\(UnitFormat.percent(over / slo))) over"
    }
}
