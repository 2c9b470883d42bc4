import Testing
@testable import PoolSizeObserve

/// The sampling schedule: exponential gaps with the asked mean, the same for the same seed.
struct PoissonScheduleTests {
    struct Counter: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func gapsAreExponentialWithTheMean() {
        var schedule = PoissonSchedule(generator: Counter(state: 42))
        let gaps = (0..<20_000).map { _ in schedule.nextGap(meanSeconds: 0.01) }
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        // An exponential's SD equals its mean: the mean of 20 000 is within 0.01 × 4/√20000 ≈ 3%
        // (4 standard errors) for any seed; this seed's draw is fixed, so the test cannot flake.
        #expect(abs(mean - 0.01) < 0.0003)
        #expect(gaps.allSatisfy { $0 >= 0 })
        // P(gap > mean) = e⁻¹ for an exponential; a fixed-rate schedule would give 0 or 1.
        let above = Double(gaps.filter { $0 > 0.01 }.count) / Double(gaps.count)
        #expect(abs(above - 0.3679) < 0.015)
    }

    @Test func theSameSeedGivesTheSameSchedule() {
        var a = PoissonSchedule(generator: Counter(state: 7)), b = PoissonSchedule(generator: Counter(state: 7))
        #expect((0..<10).map { _ in a.nextGap(meanSeconds: 1) } == (0..<10).map { _ in b.nextGap(meanSeconds: 1) })
    }

    @Test func theAutomaticRateSlowsDownForExpensiveSweeps() {
        #expect(SamplingRate.standard.meanGapSeconds(cycleCPUSeconds: 0) == 0.01, "100 Hz at most")
        // A sweep costing 1 ms of CPU: one every 1 ms / 0.8% = 125 ms keeps the observer at 0.8%.
        #expect(abs(SamplingRate.standard.meanGapSeconds(cycleCPUSeconds: 0.001) - 0.125) < 1e-12)
        #expect(SamplingRate.fixed(perSecond: 20).meanGapSeconds(cycleCPUSeconds: 1) == 0.05)
    }
}
