import PoolSizeModel
import Testing
import PoolSizeAnalysis

/// `compare` answers the sizing question first: recommendation, knee, peak; and judges
/// throughput only where a decision rests on it.
@Suite struct SizingComparisonTests {
    static let combination = Combination(pool: .queuePool, qos: .default, primitive: .none)
    static let sizes = [8, 16, 24, 28, 32, 36, 40, 48, 64]

    static func run(_ id: String, recommended: Int, knee: Int, peak: Double, throughput: [Int: [Double]]) -> RunSamples
    {
        var samples: [RunConfiguration: RunSamples.Samples] = [:]
        for (size, values) in throughput {
            samples[RunConfiguration(workload: "io", combination: combination, poolSize: size)] = RunSamples.Samples(
                throughputPerSecond: values)
        }
        let sizing = Sizing(
            recommendedQueueCount: recommended, kneePoolSize: knee, peakPoolSize: knee, peakThroughputPerSecond: peak,
            formulaQueueCountExact: 32, sizes: sizes)
        return RunSamples(
            runID: id, cores: 2, workload: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
            samples: samples, sizing: [combination: sizing])
    }

    static let steady: [Int: [Double]] = [
        16: [1000, 1001, 999, 1000], 32: [2000, 2002, 1998, 2000], 64: [2000, 2001, 1999, 2000],
    ]

    /// 32 → 40 is +25%: beyond 10% and beyond the grid's step at 32 and at 40 (4): the first
    /// line says so and the comparison fails (exit 2), though no throughput moved.
    @Test func aTwentyFivePercentRecommendationChangeFailsFirst() throws {
        let result = try RunComparator.compare(
            base: Self.run("b", recommended: 32, knee: 32, peak: 2000, throughput: Self.steady),
            current: Self.run("c", recommended: 40, knee: 40, peak: 2000, throughput: Self.steady), threshold: 0.05)
        #expect(result.recommendationChanges == 1)
        #expect(result.regressions == 0)
        #expect(result.verdict == .regression)
        #expect(result.sizing.first?.recommendationChange == 0.25)
        #expect(
            result.summary.hasPrefix(
                "The recommendation changed: queue-pool/default/none: recommended 32 → 40 (+25.0%; knee 32 → 40, peak 2000/s → 2000/s). "
            ))
    }

    /// 32 → 36 is +12.5%, but one grid step (4): the knee cannot be placed more finely, so it is
    /// the same sizing.
    @Test func aOneStepMoveIsTheSameSizing() throws {
        let result = try RunComparator.compare(
            base: Self.run("b", recommended: 32, knee: 32, peak: 2000, throughput: Self.steady),
            current: Self.run("c", recommended: 36, knee: 36, peak: 2000, throughput: Self.steady), threshold: 0.05)
        #expect(result.recommendationChanges == 0)
        #expect(result.verdict != .regression)
    }

    /// A 20% drop at 64, past both knees and not the recommendation, is shown but not judged;
    /// the same drop at 16 (below the knee) fails.
    @Test func onlySizesUpToTheKneeAndTheRecommendationAreJudged() throws {
        var noisy = Self.steady
        noisy[64] = [1600, 1601, 1599, 1600]
        let past = try RunComparator.compare(
            base: Self.run("b", recommended: 32, knee: 32, peak: 2000, throughput: Self.steady),
            current: Self.run("c", recommended: 32, knee: 32, peak: 2000, throughput: noisy), threshold: 0.05)
        let row = try #require(past.configurations.first { $0.configuration.poolSize == 64 })
        #expect(row.verdict == .regression && !row.judged)
        #expect(past.regressions == 0)
        #expect(past.verdict == .unchanged)
        #expect(
            past.notes.contains(
                "1 size(s) past the knee are shown but not judged (1 moved beyond the threshold there): no sizing decision rests on the plateau."
            ))

        var low = Self.steady
        low[16] = [800, 801, 799, 800]
        let below = try RunComparator.compare(
            base: Self.run("b", recommended: 32, knee: 32, peak: 2000, throughput: Self.steady),
            current: Self.run("c", recommended: 32, knee: 32, peak: 2000, throughput: low), threshold: 0.05)
        #expect(below.regressions == 1)
        #expect(below.verdict == .regression)
    }

    @Test func theStepIsTheDistanceToTheNearestMeasuredSize() {
        let sizing = Sizing(
            recommendedQueueCount: 32, kneePoolSize: 32, peakPoolSize: 32, peakThroughputPerSecond: 1,
            formulaQueueCountExact: 32, sizes: Self.sizes)
        #expect(sizing.step(at: 32) == 4)
        #expect(sizing.step(at: 48) == 8)
        #expect(sizing.step(at: 8) == 8)
        #expect(sizing.step(at: 30) == 2)
    }
}
