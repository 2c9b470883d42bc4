import PoolSizeModel

extension Recommender {
    /// The run's answer, by its load: in the closed loop each combination's knee, the best the
    /// highest peak (`closedRanksBefore`); in an open loop each combination sized by `SLOSizer`
    /// at the highest rate offered, the best the one meeting the objective with the fewest
    /// queues (`SLOSizer.ranksBefore`). nil when failed tasks withhold a recommendation
    /// (`withheldRecommendation` says why) or no combination could be answered. `sizeLimit` is the largest size the target
    /// allows (`SweepTarget.sizeLimit`): no answer goes past it.
    package static func recommendAll(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double = 0.05, specWaitCPURatio: Double? = nil, load: Load = .closed,
        sizeLimit: Int? = nil
    ) -> RecommendationSet? {
        guard records.withheldRecommendation == nil else { return nil }
        let byCombination = sizedCombinations(records)
        switch load {
        case .closed:
            return RecommendationSet.best(
                of: byCombination, recommendation: { $0.answer }, ranksBefore: closedRanksBefore
            ) {
                closedAnswer(
                    workload: workload, records: $0, lowLoad: lowLoad, cores: cores,
                    targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
                    sizeLimit: sizeLimit)
            }
        case let .open(arrival):
            return RecommendationSet.best(
                of: byCombination, recommendation: { $0.answer }, ranksBefore: SLOSizer.ranksBefore
            ) {
                SLOSizer.openAnswer(
                    workload: workload, records: $0, lowLoad: lowLoad, cores: cores,
                    targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
                    arrival: arrival)
            }
        }
    }
}
