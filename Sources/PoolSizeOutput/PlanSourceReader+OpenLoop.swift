import PoolSizeAnalysis
import PoolSizeModel

extension PlanSourceReader {
    /// What an open-loop run measured, for the plan: the objective and the size per rate
    /// (each rate of a range, or the one rate sized for), from machine.json's arrivals or, when
    /// it has none, the recommendation's; nil for a closed loop.
    static func measuredOpenLoop(machine: RunInfo?, recommendations: RecommendationSet?) -> MeasuredOpenLoop? {
        let recommendation = recommendations?.best
        let latency = recommendation?.latency
        guard
            let arrival = machine?.plan?.load.arrival
                ?? latency.map({
                    ArrivalPlan(
                        rates: [$0.arrivalRate], latencySLOMicroseconds: $0.latencySLOMicroseconds,
                        sloPercentile: $0.sloPercentile)
                })
        else { return nil }
        let sizings =
            latency?.rateSizings ?? latency.map { l in
                [
                    RateSizing(
                        arrivalRate: l.arrivalRate,
                        recommendedQueueCount: l.met ? recommendation?.recommendedQueueCount : nil,
                        percentileMicroseconds: l.measuredMicroseconds,
                        queueingModelQueueCount: l.queueingModelQueueCount)
                ]
            } ?? []
        let several = (recommendations?.combinations.count ?? 0) > 1
        return MeasuredOpenLoop(
            latencySLOMicroseconds: arrival.latencySLOMicroseconds, sloPercentile: arrival.sloPercentile,
            sizings: sizings, combination: several ? recommendation?.combination.label : nil)
    }
}
