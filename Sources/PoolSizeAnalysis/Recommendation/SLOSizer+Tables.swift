import PoolSizeModel

/// One combination at one offered rate of an open-loop run: every size's verdict and the
/// smallest that passes. The views (console, report, charts, compare, export) show these.
package struct OpenLoopRateTable: Equatable, Sendable {
    /// The pool, tier and primitive.
    package var combination: Combination
    /// The offered arrival rate, tasks/s.
    package var arrivalRate: ArrivalRate
    /// Every size measured at this rate, smallest first.
    package var verdicts: [SLOVerdict]
    /// The size the objective picks at this rate (`SLOSizer.choose`); nil when none passes.
    package var recommendedQueueCount: Int?
    /// The smallest size the queueing model says passes at this rate.
    package var queueingModelQueueCount: Int?

    /// The verdict at `size`, when it was measured.
    package func verdict(_ size: Int) -> SLOVerdict? { verdicts.first { $0.poolSize == size } }
}

extension SLOSizer {
    /// The size `verdicts` pick: the smallest from which on every size passes, else the
    /// smallest that passes; nil when none does.
    package static func pick(_ verdicts: [SLOVerdict]) -> SLOVerdict? { choose(verdicts) }

    /// The arrival plan of a run, for its views: machine.json's when it recorded one, else
    /// rebuilt from the trials and the recommendation (a run directory of trials alone). The
    /// rates are those the trials carry, so every rate shown was measured. nil for a closed loop.
    package static func plan(records: [TrialRecord], recorded: ArrivalPlan?, recommendation: Recommendation?)
        -> ArrivalPlan?
    {
        let measured = records.compactMap(\.arrivalRate)
        guard recorded != nil || !measured.isEmpty else { return nil }
        var plan =
            recorded
            ?? ArrivalPlan(
                rates: [], latencySLOMicroseconds: recommendation?.latency?.latencySLOMicroseconds,
                sloPercentile: recommendation?.latency?.sloPercentile ?? 99)
        if !measured.isEmpty {
            var rates: [ArrivalRate] = []
            for rate in measured.sorted() where !rates.contains(where: { $0 == rate }) { rates.append(rate) }
            plan.rates = rates
        }
        return plan
    }

    /// Every combination's table at every rate of `arrival`, by combination then rate. Without
    /// `lowLoad` the model's figures are absent.
    package static func tables(_ records: [TrialRecord], arrival: ArrivalPlan, lowLoad: LowLoadEstimate?)
        -> [OpenLoopRateTable]
    {
        let load =
            lowLoad
            ?? LowLoadEstimate(tasks: 0, seconds: 0, cpuMicrosecondsPerTask: 0, waitMicrosecondsPerTask: 0, ratio: nil)
        let byCombination = Dictionary(grouping: records.valid.filter(\.isOpenLoop), by: \.combination)
        return byCombination.keys.sorted().flatMap { combination in
            arrival.rates.sorted().compactMap { rate -> OpenLoopRateTable? in
                let verdicts = verdicts(byCombination[combination]!, rate: rate, arrival: arrival, lowLoad: load)
                guard !verdicts.isEmpty else { return nil }
                return OpenLoopRateTable(
                    combination: combination, arrivalRate: rate, verdicts: verdicts,
                    recommendedQueueCount: choose(verdicts)?.poolSize,
                    queueingModelQueueCount: modelQueueCount(rate: rate.perSecond, lowLoad: load, arrival: arrival))
            }
        }
    }

    /// `p99`, `p99.9`.
    package static func name(percentile: Double) -> String { "p" + UnitFormat.number(percentile) }
}
