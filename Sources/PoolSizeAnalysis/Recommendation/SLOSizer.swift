import Foundation
import PoolSizeModel
import PoolSizeStats

/// Sizes a pool for a latency objective from an open-loop sweep: at the offered rate, the
/// smallest size that keeps up and whose latency percentile (from each task's intended arrival)
/// meets the objective — and stays met at every larger size measured, so one lucky trial at a
/// size that is really too small does not decide.
package enum SLOSizer {
    /// The percentiles trials record, which an objective can name.
    package static let percentiles: [Double] = [50, 90, 99, 99.9]

    /// The `percentile`-th value of `latency`, for one of `percentiles`.
    package static func value(_ latency: LatencyPercentiles, percentile: Double) -> Double {
        latency.value(percentile: percentile)
    }

    /// C + W at low load, seconds: the mean service time the queueing model takes.
    static func serviceSeconds(_ lowLoad: LowLoadEstimate) -> Double {
        max(0, lowLoad.cpuMicrosecondsPerTask + lowLoad.waitMicrosecondsPerTask) / 1e6
    }

    /// The task's own `percentile`-th time at low load, µs (the mean C + W when not recorded).
    static func ownTime(_ lowLoad: LowLoadEstimate, percentile: Double) -> Double {
        lowLoad.taskTime.map { value($0, percentile: percentile) } ?? serviceSeconds(lowLoad) * 1e6
    }

    /// The latency percentile the queueing model predicts for `size` queues at `rate`, µs: the
    /// task's own percentile at low load plus M/M/c's percentile of the wait for a free queue
    /// (Poisson arrivals, one shared queue, `size` servers with exponential times of mean C + W),
    /// the same sum `poolsize plan` makes for cores. nil where that queue is unstable.
    package static func modelPercentile(size: Int, rate: Double, lowLoad: LowLoadEstimate, percentile: Double)
        -> Double?
    {
        let service = serviceSeconds(lowLoad)
        guard service > 0,
            let wait = Queueing.mmcWaitQuantile(
                servers: size, arrivalRate: rate, serviceRate: 1 / service, percentile: percentile)
        else { return nil }
        return ownTime(lowLoad, percentile: percentile) + wait * 1e6
    }

    /// The smallest size the model says meets the objective at `rate` (or, without one, is stable).
    package static func modelQueueCount(rate: Double, lowLoad: LowLoadEstimate, arrival: ArrivalPlan) -> Int? {
        let service = serviceSeconds(lowLoad)
        guard service > 0 else { return nil }
        let load = rate * service
        var size = max(1, Int(saturating: load.rounded(.down)))
        while size <= SizeSelection.maximumSize {
            if Double(size) > load {
                guard let slo = arrival.latencySLOMicroseconds else { return size }
                if let p = modelPercentile(size: size, rate: rate, lowLoad: lowLoad, percentile: arrival.sloPercentile),
                    p <= slo
                {
                    return size
                }
                // Waits fall with size but never below zero: past the point where the task's own
                // time alone exceeds the objective, no size will do.
                if ownTime(lowLoad, percentile: arrival.sloPercentile) > slo { return nil }
            }
            size += 1
        }
        return nil
    }

    /// Each size's verdict at `rate`, from that rate's valid trials of one combination, smallest size first.
    package static func verdicts(
        _ records: [TrialRecord], rate: ArrivalRate, arrival: ArrivalPlan, lowLoad: LowLoadEstimate
    ) -> [SLOVerdict] {
        let atRate = records.valid.filter { $0.arrivalRate == rate }
        return Dictionary(grouping: atRate, by: \.poolSize).sorted { $0.key < $1.key }.map { size, trials in
            let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
            let stable = trials.allSatisfy { $0.openLoop?.stable ?? false }
            let worst = trials.map { value($0.latency, percentile: arrival.sloPercentile) }.max() ?? 0
            let p50s = trials.map(\.latency.p50).sorted()
            return SLOVerdict(
                poolSize: size, arrivalRate: rate, trials: trials.count, stable: stable,
                achievedPerSecond: mean(trials.map(\.throughputPerSecond)),
                offeredPerSecond: mean(trials.map { $0.openLoop?.offeredPerSecond ?? 0 }),
                backlogMean: mean(trials.map { $0.openLoop?.backlogMean ?? 0 }),
                p50Microseconds: p50s[p50s.count / 2], percentileMicroseconds: worst,
                meetsSLO: arrival.latencySLOMicroseconds.map { stable && worst <= $0 },
                modelPercentileMicroseconds: modelPercentile(
                    size: size, rate: rate.perSecond, lowLoad: lowLoad, percentile: arrival.sloPercentile))
        }
    }

    /// The smallest size from which on every measured size passes (keeps up and, with an
    /// objective, meets it); else the smallest that passes at all; nil when none does.
    static func choose(_ verdicts: [SLOVerdict]) -> SLOVerdict? {
        let passes = { (v: SLOVerdict) in v.meetsSLO ?? v.stable }
        var chosen: SLOVerdict? = nil
        for verdict in verdicts.reversed() {
            guard passes(verdict) else { break }
            chosen = verdict
        }
        return chosen ?? verdicts.first(where: passes)
    }

    /// The recommendation of one combination (`records`, every rate's trials): at the highest
    /// rate offered, the size its verdicts choose, with the per-rate answers of a range alongside
    /// and, where the trials at that rate have a knee, their throughput curve. The figures every
    /// answer shares come from the trials at that rate (`Recommender.answer`). nil when no valid
    /// trial ran at that rate.
    package static func recommend(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int, targetUtilization: Double,
        tolerance: Double = 0.05, specWaitCPURatio: Double? = nil, arrival: ArrivalPlan
    ) -> Recommendation? {
        openAnswer(
            workload: workload, records: records, lowLoad: lowLoad, cores: cores, targetUtilization: targetUtilization,
            tolerance: tolerance, specWaitCPURatio: specWaitCPURatio, arrival: arrival)?.answer
    }

    /// `recommend`'s answer with its sizing, which the best combination is chosen by.
    static func openAnswer(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int, targetUtilization: Double,
        tolerance: Double, specWaitCPURatio: Double?, arrival: ArrivalPlan
    ) -> (answer: Recommendation, sizing: LatencySizing)? {
        let rate = arrival.topRate
        let verdicts = verdicts(records, rate: rate, arrival: arrival, lowLoad: lowLoad)
        guard let largest = verdicts.last else { return nil }
        let atRate = records.valid.filter { $0.arrivalRate == rate }
        let chosen = choose(verdicts)
        var sizing = LatencySizing(
            arrivalRate: rate, latencySLOMicroseconds: arrival.latencySLOMicroseconds,
            sloPercentile: arrival.sloPercentile,
            met: chosen != nil, measuredMicroseconds: chosen?.percentileMicroseconds,
            queueingModelQueueCount: modelQueueCount(rate: rate.perSecond, lowLoad: lowLoad, arrival: arrival),
            sizeVerdicts: verdicts,
            curve: Recommender.curve(atRate, targetUtilization: targetUtilization, tolerance: tolerance)?.0)
        if arrival.isRange {
            sizing.rateSizings = arrival.rates.map { rate in
                let pick = choose(Self.verdicts(records, rate: rate, arrival: arrival, lowLoad: lowLoad))
                return RateSizing(
                    arrivalRate: rate, recommendedQueueCount: pick?.poolSize,
                    percentileMicroseconds: pick?.percentileMicroseconds,
                    queueingModelQueueCount: modelQueueCount(rate: rate.perSecond, lowLoad: lowLoad, arrival: arrival))
            }
        }
        var answer = Recommender.answer(
            workload: workload, records: atRate, lowLoad: lowLoad, cores: cores, targetUtilization: targetUtilization,
            tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
            recommendedQueueCount: chosen?.poolSize ?? largest.poolSize, sizing: .arrivals(sizing))
        answer.explanation = .arrivals(explain(verdicts: verdicts, chosen: chosen, lowLoad: lowLoad, arrival: arrival))
        return (answer, sizing)
    }

    /// How an open loop ranks two combinations' answers at the highest rate: one that met the
    /// objective (kept up, without one) before one that did not, then the fewest queues, then
    /// the lower measured percentile.
    static func ranksBefore(
        _ a: (answer: Recommendation, sizing: LatencySizing), _ b: (answer: Recommendation, sizing: LatencySizing)
    ) -> Bool {
        if a.sizing.met != b.sizing.met { return a.sizing.met }
        if a.answer.recommendedQueueCount != b.answer.recommendedQueueCount {
            return a.answer.recommendedQueueCount < b.answer.recommendedQueueCount
        }
        return (a.sizing.measuredMicroseconds ?? .infinity) < (b.sizing.measuredMicroseconds ?? .infinity)
    }

    /// What the sizing found beyond its figures: the sizes below the chosen one that failed,
    /// a larger one that failed, a task too slow for the objective, the rate the largest size
    /// would carry.
    static func explain(
        verdicts: [SLOVerdict], chosen: SLOVerdict?, lowLoad: LowLoadEstimate, arrival: ArrivalPlan
    ) -> ArrivalExplanation {
        let failing = verdicts.filter { v in chosen.map { v.poolSize < $0.poolSize } ?? true }.reversed().prefix(3)
        let largerFailed =
            chosen.map { chosen in
                verdicts.contains { $0.poolSize > chosen.poolSize && !($0.meetsSLO ?? $0.stable) }
            } ?? false
        let largest = verdicts.last?.poolSize ?? 0
        var own: Double? = nil
        if chosen == nil, let slo = arrival.latencySLOMicroseconds,
            let task = lowLoad.taskTime.map({ value($0, percentile: arrival.sloPercentile) }), task > slo
        {
            own = task
        }
        var nearest: SLOVerdict? = nil
        if chosen == nil, let top = verdicts.last,
            let best = verdicts.filter(\.stable).min(by: { $0.percentileMicroseconds < $1.percentileMicroseconds }),
            best.poolSize < top.poolSize, !top.stable || top.percentileMicroseconds > 1.5 * best.percentileMicroseconds
        {
            nearest = best
        }
        // The model assumes more queues never hurt and knows no capacity but the queues': when a
        // smaller size did better, or the largest fell behind carrying less than the model's rate
        // (a server or database behind the pool ran out first), that rate is not to be had.
        var rate =
            chosen == nil && own == nil && nearest == nil
            ? sustainableRate(size: largest, lowLoad: lowLoad, arrival: arrival) : nil
        if let model = rate, let top = verdicts.last, !top.stable, model > top.achievedPerSecond { rate = nil }
        return ArrivalExplanation(
            arrival: arrival, serviceSeconds: serviceSeconds(lowLoad), chosen: chosen, failing: Array(failing),
            largerFailed: largerFailed, ownPercentileMicroseconds: own, largest: largest, sustainableRate: rate,
            nearest: nearest)
    }

    /// The highest rate at which `size` queues meet the objective by the model
    /// (`modelPercentile`); nil when none does.
    package static func sustainableRate(size: Int, lowLoad: LowLoadEstimate, arrival: ArrivalPlan) -> Double? {
        let service = serviceSeconds(lowLoad)
        guard service > 0, size >= 1 else { return nil }
        func meets(_ rate: Double) -> Bool {
            guard let p = modelPercentile(size: size, rate: rate, lowLoad: lowLoad, percentile: arrival.sloPercentile)
            else { return false }
            return arrival.latencySLOMicroseconds.map { p <= $0 } ?? true
        }
        var low = 0.0, high = Double(size) / service
        guard meets(high * 1e-6) else { return nil }
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if meets(middle) { low = middle } else { high = middle }
        }
        return low > 0 ? low : nil
    }
}
