import PoolSizeModel
import Testing

@Suite struct OpenLoopStabilityTests {
    /// A 1 s window at 500/s of 16.1 ms tasks: 531 arrivals, 524 carried (98.7%), no growth.
    /// Busy queues 531 × 0.0161 = 8.55; shortfall 531 × (1 − 524/531) = 7 tasks; allowed 1% of
    /// 531 + √(2 × 8.55) = 5.31 + 4.13 = 9.44: stable. A flat 99% rule (525.7 needed) failed it.
    @Test func aShortWindowsEdgeIsNotFallingBehind() {
        #expect(
            OpenLoopFigures.isStable(
                offered: 531, achieved: 524, growth: -0.44, poolSize: 36, arrivalsInWindow: 531, busyQueues: 8.55))
    }

    /// 36 queues of 16 ms tasks offered 2290/s for 1 s carry 98.3% (shortfall 39): busy queues
    /// min(36, 36.6) = 36, allowed 22.9 + √72 = 31.4 < 39, unstable, though the backlog's
    /// growth (30) is within the pool size.
    @Test func aPoolShortOfCapacityFailsThoughItsGrowthIsWithinThePoolSize() {
        #expect(
            !OpenLoopFigures.isStable(
                offered: 2290, achieved: 2251, growth: 30, poolSize: 36, arrivalsInWindow: 2290, busyQueues: 36.6))
    }

    /// 64 queues of 1 s tasks at 80/s (capacity 64/s) in a 1 s window: 80 arrivals, 64 carried,
    /// shortfall 16 > 0.8 + √(2 × 64) = 12.1: unstable, whatever the backlog it piled up.
    @Test func anOverloadedPoolWithAFewArrivalsFails() {
        #expect(
            !OpenLoopFigures.isStable(
                offered: 80, achieved: 64, growth: 12, poolSize: 64, arrivalsInWindow: 80, busyQueues: 80))
    }

    /// Growth is allowed up to max(pool size, 1% of arrivals): 16 queues, 2000 arrivals → 20.
    @Test func backlogGrowthBeyondPoolSizeOrOnePercentIsUnstable() {
        #expect(
            OpenLoopFigures.isStable(
                offered: 1000, achieved: 1000, growth: 20, poolSize: 16, arrivalsInWindow: 2000, busyQueues: 16))
        #expect(
            !OpenLoopFigures.isStable(
                offered: 1000, achieved: 1000, growth: 20.5, poolSize: 16, arrivalsInWindow: 2000, busyQueues: 16))
        #expect(
            !OpenLoopFigures.isStable(
                offered: 1000, achieved: 1000, growth: 37, poolSize: 36, arrivalsInWindow: 2000, busyQueues: 16))
    }

    /// No arrivals in the window: nothing to fall behind on. A figure that is not finite fails.
    @Test func emptyWindowsPassAndNonFiniteFiguresFail() {
        #expect(
            OpenLoopFigures.isStable(
                offered: 0, achieved: 0, growth: 0, poolSize: 1, arrivalsInWindow: 0, busyQueues: 0))
        #expect(
            !OpenLoopFigures.isStable(
                offered: .nan, achieved: 500, growth: 0, poolSize: 8, arrivalsInWindow: 500, busyQueues: 4))
        #expect(
            !OpenLoopFigures.isStable(
                offered: 500, achieved: 500, growth: .infinity, poolSize: 8, arrivalsInWindow: 500, busyQueues: 4))
    }
}
