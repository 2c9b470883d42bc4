@testable import PoolSizeObserve
import Testing

/// W/C's 95% interval from the batches, worked by hand.
@Suite struct WaitToCPUIntervalTests {
    /// A batch of one thread-second with 0.1 s of CPU whose blocked samples are `io` in IO and
    /// `idle` idle: 0.9 s off-CPU split in those proportions.
    static func batch(io: Double, idle: Double, ambiguous: Double = 0) -> PoolTally {
        var tally = PoolTally()
        tally.add(threadSeconds: 1, cpuSeconds: 0.1, runQueueSeconds: 0, sample: .blockedIO, weight: io)
        tally.add(threadSeconds: 0, cpuSeconds: 0, runQueueSeconds: 0, sample: .idle, weight: idle)
        if ambiguous > 0 {
            tally.add(threadSeconds: 0, cpuSeconds: 0, runQueueSeconds: 0, sample: .ambiguous, weight: ambiguous)
        }
        return tally
    }

    /// IO seconds 0.45, 0.54, 0.36 over 0.1 s of CPU each: R = 4.5; s_y² = 0.0081, so
    /// Var(R) = 0.0081 / (3 × 0.1²) = 0.27, SE 0.5196, t(2) = 4.3027: 4.5 ± 2.2358.
    @Test func threeBatchesGiveTheDeltaMethodInterval() throws {
        let batches = [Self.batch(io: 5, idle: 5), Self.batch(io: 6, idle: 4), Self.batch(io: 4, idle: 6)]
        let interval = try #require(WaitToCPUInterval.of(batches, range: ValueRange(low: 4.5, high: 4.5)))
        #expect(abs(interval.low - 2.2642) < 1e-3, "\(interval)")
        #expect(abs(interval.high - 6.7358) < 1e-3, "\(interval)")
    }

    /// The limits scale the bounds the whole observation gives: the high bound adds the
    /// ambiguous seconds (here the same in every batch, so no spread of their own).
    @Test func eachBoundKeepsItsOwnLimit() throws {
        let batches = [
            Self.batch(io: 5, idle: 0, ambiguous: 5), Self.batch(io: 6, idle: 0, ambiguous: 4),
            Self.batch(io: 4, idle: 0, ambiguous: 6),
        ]
        // IO + ambiguous is 0.9 s in every batch: W/C 9 with no spread.
        let interval = try #require(WaitToCPUInterval.of(batches, range: ValueRange(low: 4.5, high: 9)))
        #expect(abs(interval.low - 2.2642) < 1e-3, "\(interval)")
        #expect(abs(interval.high - 9) < 1e-9, "\(interval)")
    }

    /// One batch, or batches without CPU: no interval. An empty batch (no thread time) is left
    /// out; a batch that only waited is kept (W, no C).
    @Test func fewerThanTwoBatchesWithCPUGiveNone() {
        #expect(WaitToCPUInterval.of([Self.batch(io: 5, idle: 5)], range: ValueRange(low: 4.5, high: 4.5)) == nil)
        #expect(
            WaitToCPUInterval.of([Self.batch(io: 5, idle: 5), PoolTally()], range: ValueRange(low: 4.5, high: 4.5))
                == nil)
        var waited = PoolTally()
        waited.add(threadSeconds: 1, cpuSeconds: 0, runQueueSeconds: 0, sample: .blockedIO, weight: 10)
        let kept = WaitToCPUInterval.of(
            [Self.batch(io: 5, idle: 5), Self.batch(io: 5, idle: 5), waited], range: ValueRange(low: 9.5, high: 9.5))
        // IO 0.45, 0.45, 1 s over CPU 0.1, 0.1, 0: R = 1.9 / 0.2 = 9.5 with a spread, where leaving
        // the waiting batch out would have given 4.5 and no spread at all.
        #expect(kept.map { $0.low < 9.5 && $0.high > 9.5 } == true, "\(String(describing: kept))")
    }
}

/// How long to observe for a known-IO W/C within ±10%, worked by hand: the interval's
/// half-width shrinks as the square root of the time observed.
@Suite struct ObservationPrecisionTests {
    static func pool(known: Double, lower: Double) throws -> PoolEstimate {
        var pool = try #require(EstimatorTests.observation.pools.first)
        pool.waitToCPU = ValueRange(low: known, high: known * 5)
        pool.waitToCPUInterval95 = ValueRange(low: lower, high: known * 6)
        return pool
    }

    /// Known IO 7.0, interval from 5.6: −20% after 15 s, so (20 / 10)² × 15 = 60 s for ±10%;
    /// from 6.4 (−8.6%) it already is, and without an interval nothing is said.
    @Test func theTimeGrowsAsTheSquareOfThePrecisionWanted() throws {
        let wide = try Self.pool(known: 7, lower: 5.6)
        #expect(abs((wide.knownIOHalfWidth ?? 0) - 0.2) < 1e-12)
        #expect(abs((wide.secondsForWantedPrecision(observedSeconds: 15) ?? 0) - 60) < 1e-9)
        #expect(try Self.pool(known: 7, lower: 6.4).secondsForWantedPrecision(observedSeconds: 15) == nil)
        var bare = wide
        bare.waitToCPUInterval95 = nil
        #expect(bare.secondsForWantedPrecision(observedSeconds: 15) == nil)
    }
}
