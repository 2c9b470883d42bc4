import PoolSizeModel
import Testing

@Suite struct OpenLoopStabilityTests {
    /// A 1 s window at 500/s: 531 arrivals, 524 carried (98.7%), mean backlog 8.45, no growth.
    /// Shortfall 531 × (1 − 524/531) = 7 tasks; allowed 1% of 531 + 8.45 = 13.76: stable. A flat
    /// 99% rule (525.7 needed) called this pool unstable.
    @Test func aShortWindowsEdgeIsNotFallingBehind() {
        #expect(OpenLoopFigures.isStable(offered: 531, achieved: 524, growth: -0.44, poolSize: 36, arrivalsInWindow: 531, backlogMean: 8.45))
    }

    /// 510 of 531 carried: shortfall 21 > 13.76, unstable though the backlog did not trend.
    @Test func aShortfallBeyondTheEdgeAllowanceIsUnstable() {
        #expect(!OpenLoopFigures.isStable(offered: 531, achieved: 510, growth: 0, poolSize: 36, arrivalsInWindow: 531, backlogMean: 8.45))
    }

    /// Growth is allowed up to max(pool size, 1% of arrivals): 16 queues, 2000 arrivals → 20.
    @Test func backlogGrowthBeyondPoolSizeOrOnePercentIsUnstable() {
        #expect(OpenLoopFigures.isStable(offered: 1000, achieved: 1000, growth: 20, poolSize: 16, arrivalsInWindow: 2000, backlogMean: 16))
        #expect(!OpenLoopFigures.isStable(offered: 1000, achieved: 1000, growth: 20.5, poolSize: 16, arrivalsInWindow: 2000, backlogMean: 16))
        #expect(!OpenLoopFigures.isStable(offered: 1000, achieved: 1000, growth: 37, poolSize: 36, arrivalsInWindow: 2000, backlogMean: 16))
    }

    /// No arrivals in the window: nothing to fall behind on.
    @Test func anEmptyWindowIsStable() {
        #expect(OpenLoopFigures.isStable(offered: 0, achieved: 0, growth: 0, poolSize: 1, arrivalsInWindow: 0, backlogMean: 0))
    }
}
