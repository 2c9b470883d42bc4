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
        switch percentile {
        case 50: return latency.p50
        case 90: return latency.p90
        case 99.9: return latency.p999
        default: return latency.p99
        }
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

    /// The recommendation of one combination: at the highest rate offered, with the per-rate
    /// answers of a range alongside. `base` is the throughput analysis of the same trials at
    /// that rate (knee, formula, USL), whose figures are kept; count, basis and reason are the
    /// objective's.
    package static func recommend(
        base: Recommendation, records: [TrialRecord], lowLoad: LowLoadEstimate, arrival: ArrivalPlan
    ) -> Recommendation {
        var r = base
        let rate = arrival.topRate
        let verdicts = verdicts(records, rate: rate, arrival: arrival, lowLoad: lowLoad)
        let chosen = choose(verdicts)
        var sizing = LatencySizing(
            arrivalRate: rate, latencySLOMicroseconds: arrival.latencySLOMicroseconds,
            sloPercentile: arrival.sloPercentile,
            met: chosen != nil, measuredMicroseconds: chosen?.percentileMicroseconds,
            queueingModelQueueCount: modelQueueCount(rate: rate.perSecond, lowLoad: lowLoad, arrival: arrival),
            sizeVerdicts: verdicts)
        r.recommendedQueueCount = chosen?.poolSize ?? verdicts.last?.poolSize ?? base.recommendedQueueCount
        if arrival.isRange {
            sizing.rateSizings = arrival.rates.map { rate in
                let pick = choose(Self.verdicts(records, rate: rate, arrival: arrival, lowLoad: lowLoad))
                return RateSizing(
                    arrivalRate: rate, recommendedQueueCount: pick?.poolSize,
                    percentileMicroseconds: pick?.percentileMicroseconds,
                    queueingModelQueueCount: modelQueueCount(rate: rate.perSecond, lowLoad: lowLoad, arrival: arrival))
            }
        }
        r.sizing = .arrivals(sizing)
        r.reason = explain(sizing, verdicts: verdicts, chosen: chosen, lowLoad: lowLoad, arrival: arrival)
        return r
    }

    static func percentileName(_ p: Double) -> String { "p" + UnitFormat.number(p) }

    /// `12.3 ms`, `850 µs`, `2.1 s`.
    static func time(_ microseconds: Double) -> String {
        if microseconds >= 1e6 { return UnitFormat.significant(microseconds / 1e6) + " s" }
        if microseconds >= 1e3 { return UnitFormat.significant(microseconds / 1e3) + " ms" }
        return UnitFormat.significant(microseconds) + " µs"
    }

    /// What a size that did not pass lacked, in a few words.
    static func shortfall(_ v: SLOVerdict, arrival: ArrivalPlan) -> String {
        let name = percentileName(arrival.sloPercentile)
        if !v.stable {
            let carried = v.offeredPerSecond > 0 ? v.achievedPerSecond / v.offeredPerSecond : 0
            return
                "\(v.poolSize) fell behind (carried \(String(format: "%.1f", min(carried, 1) * 100))% of the arrivals, \(name) at least \(time(v.percentileMicroseconds)))"
        }
        guard let slo = arrival.latencySLOMicroseconds else { return "\(v.poolSize) kept up" }
        let over = v.percentileMicroseconds - slo
        return
            "\(v.poolSize) kept up but its \(name) was \(time(v.percentileMicroseconds)), \(time(over)) (\(UnitFormat.percent(over / slo))) over"
    }

    static func explain(
        _ r: LatencySizing, verdicts: [SLOVerdict], chosen: SLOVerdict?, lowLoad: LowLoadEstimate, arrival: ArrivalPlan
    ) -> String {
        let rate = r.arrivalRate.perSecond
        let name = percentileName(arrival.sloPercentile)
        let service = serviceSeconds(lowLoad)
        let at = "At \(UnitFormat.significant(rate))/s (\(arrival.process.rawValue) arrivals)"
        let little =
            "Little's law puts the average busy queues at \(UnitFormat.significant(rate * service)) (rate × C + W of \(time(service * 1e6)) at low load)"
        let model =
            r.queueingModelQueueCount.map {
                "the queueing model (the task's own \(name) plus M/M/c's wait for a free queue) asks for \($0)"
            }
            ?? "the queueing model (the task's own \(name) plus M/M/c's wait for a free queue) finds no size that meets it"
        let failing = verdicts.filter { v in chosen.map { v.poolSize < $0.poolSize } ?? true }.reversed().prefix(3)
        let missed =
            failing.isEmpty
            ? ""
            : " Smaller sizes did not: " + failing.map { shortfall($0, arrival: arrival) }.joined(separator: "; ") + "."
        if let chosen {
            let what: String
            if let slo = arrival.latencySLOMicroseconds {
                what =
                    "\(chosen.poolSize) queues keep \(name) latency at \(time(chosen.percentileMicroseconds)) (\(chosen.trials == 1 ? "1 trial" : "worst of \(chosen.trials) trials")), within the \(time(slo)) objective, counted from each task's intended arrival."
            } else {
                what =
                    "\(chosen.poolSize) queues are the smallest that keep up (\(name) latency \(time(chosen.percentileMicroseconds)), from each task's intended arrival)."
            }
            let later =
                verdicts.contains { $0.poolSize > chosen.poolSize && !($0.meetsSLO ?? $0.stable) }
                ? " A larger size measured did not pass, so the sizes are noisy here: repeat with more --repeat." : ""
            return "\(at), \(what)\(missed) \(little); \(model).\(later)"
        }
        // No size passed: say why no size could, or which rate the largest would carry.
        let largest = verdicts.last?.poolSize ?? 0
        if let slo = arrival.latencySLOMicroseconds,
            let own = lowLoad.taskTime.map({ value($0, percentile: arrival.sloPercentile) }), own > slo
        {
            return
                "\(at), no size met the \(time(slo)) \(name) objective, and none can: a task alone takes \(time(own)) at its \(name) (C + W at low load), longer than the objective allows; queues only add to that. Relax the objective or make the task faster.\(missed)"
        }
        var advice = "measure larger sizes (--sizes \(largest)...\(max(largest * 2, largest + 4)))"
        if let sustainable = sustainableRate(size: largest, lowLoad: lowLoad, arrival: arrival) {
            advice =
                "\(largest) queues would meet it at about \(UnitFormat.significant(sustainable))/s by the queueing model, or "
                + advice
        }
        return
            "\(at), no size up to \(largest) met the objective\(arrival.latencySLOMicroseconds.map { " (\(name) ≤ \(time($0)))" } ?? " of keeping up").\(missed) \(little); \(model). \(advice.prefix(1).uppercased() + advice.dropFirst())."
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
