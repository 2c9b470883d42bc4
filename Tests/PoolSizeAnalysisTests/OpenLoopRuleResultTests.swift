import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// The rules of thumb of an open-loop server sweep, said in the open loop's terms: whether each
/// rule's size keeps up with the rate and meets the objective, with its percentile, against the
/// recommended size; on verdicts written by hand.
@Suite struct OpenLoopRuleResultTests {
    static func verdict(_ size: Int, stable: Bool, carried: Double, p99: Double, meets: Bool?) -> SLOVerdict {
        SLOVerdict(
            poolSize: size, arrivalRate: 400, trials: 1, stable: stable, achievedPerSecond: carried,
            offeredPerSecond: 400, backlogMean: 1, p50Microseconds: 10_000, percentileMicroseconds: p99,
            meetsSLO: meets, modelPercentileMicroseconds: nil)
    }

    /// On 2 cores the rules give 2, 3 and 5: 2 falls behind, 3 was not measured, 5 keeps up but
    /// misses the objective; the recommendation is 8.
    @Test func eachRuleIsSaidAgainstTheObjectiveAtTheRate() {
        let verdicts = [
            Self.verdict(2, stable: false, carried: 196, p99: 2_730_000, meets: false),
            Self.verdict(5, stable: true, carried: 401, p99: 61_200, meets: false),
            Self.verdict(8, stable: true, carried: 399, p99: 13_700, meets: true),
        ]
        let arrival = ArrivalPlan(rates: [400], latencySLOMicroseconds: 50_000)
        let results = OpenLoopRuleResult.compare(
            verdicts, arrival: arrival, recommended: 8, rules: .threadPool(cores: 2))
        #expect(results.map(\.size) == [2, 3, 5])
        #expect(
            results.map(\.sentence) == [
                "cores = 2: does not keep up with 400/s (carried 196/s, p99 ≥ 2.73 s); 6 fewer than the recommended 8",
                "cores + 1 = 3: no valid trial at this size",
                "2 × cores + 1 = 5: misses p99 ≤ 50.0 ms at 400/s (p99 61.2 ms); 3 fewer than the recommended 8",
            ])
    }

    /// A rule's size that is the recommendation, or larger; without an objective, keeping up is
    /// what is said; without a recommendation, no size is compared against.
    @Test func theRecommendedSizeALargerOneAndNoObjective() {
        let verdicts = [
            Self.verdict(2, stable: true, carried: 399, p99: 31_200, meets: true),
            Self.verdict(3, stable: true, carried: 400, p99: 20_100, meets: true),
        ]
        let withObjective = OpenLoopRuleResult.compare(
            verdicts, arrival: ArrivalPlan(rates: [400], latencySLOMicroseconds: 50_000), recommended: 2,
            rules: .threadPool(cores: 2))
        #expect(
            withObjective[0].sentence == "cores = 2: the recommended size, meets p99 ≤ 50.0 ms at 400/s (p99 31.2 ms)")
        #expect(
            withObjective[1].sentence
                == "cores + 1 = 3: meets p99 ≤ 50.0 ms at 400/s (p99 20.1 ms); 1 more than the recommended 2")
        let keepingUp = OpenLoopRuleResult.compare(
            verdicts, arrival: ArrivalPlan(rates: [400]), recommended: nil, rules: .threadPool(cores: 2))
        #expect(keepingUp[0].sentence == "cores = 2: keeps up with 400/s (p99 31.2 ms)")
    }
}
