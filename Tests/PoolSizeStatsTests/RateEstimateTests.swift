import Testing

@testable import PoolSizeStats

@Suite struct RateEstimateTests {
    @Test func theLongRunVarianceIsWorkedByHand() {
        // [1, 2, 3, 4] around 2.5: γ0 = (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25,
        // γ1 = (0.75 − 0.25 + 0.75) / 4 = 0.3125, weighted 1 − 1/2: 1.25 + 2 × 0.5 × 0.3125 = 1.5625.
        #expect(RateEstimate.longRunVariance([1, 2, 3, 4], mean: 2.5, lags: 1) == 1.5625)
        #expect(RateEstimate.longRunVariance([1, 2, 3, 4], mean: 2.5, lags: 0) == 1.25)
        // Alternating values: the lag-1 term outweighs the rest, and the result is kept at 0.
        #expect(RateEstimate.longRunVariance([0, 2, 0, 2], mean: 1, lags: 1) == 0.25)
        #expect(RateEstimate.longRunVariance([], mean: 0, lags: 3) == 0)
    }

    @Test func aSteadyRateIsKnownExactly() throws {
        let estimate = try #require(RateEstimate(binCounts: Array(repeating: 2, count: 120), binSeconds: 0.001))
        #expect(estimate.eventsPerSecond == 2000)
        #expect(estimate.events == 240)
        #expect(estimate.seconds == 0.12)
        #expect(estimate.relativeHalfWidth == 0)
        #expect(estimate.halvesDifference == 0)
    }

    @Test func countsThatTradeACompletionAtTheirEdgesAreNotNoise() throws {
        // 30 batches alternating 10 and 12 (a closed loop's completion falling either side of a
        // batch edge): the plain batch-means interval would be ±3.45%; the long-run variance
        // over ⌊√30⌋ = 5 lags gives ±0.620% (t 2.0452 at 29 degrees of freedom).
        let bins = (0..<30).map { $0 % 2 == 0 ? 10 : 12 }
        let estimate = try #require(RateEstimate(binCounts: bins, binSeconds: 0.004))
        #expect(estimate.eventsPerSecond == 2750)
        #expect(abs(estimate.relativeHalfWidth - 0.006198) < 0.000_01)
        // First half 8 × 10 + 7 × 12 = 164, second 8 × 12 + 7 × 10 = 166: 2 / 15 / 11.
        #expect(abs(estimate.halvesDifference - 2.0 / 15 / 11) < 1e-12)
    }

    @Test func binsAreGroupedIntoWholeBatchesFromTheFirst() throws {
        // 65 bins make 30 batches of 2 bins; the last 5 bins are left out.
        let bins = Array(repeating: 1, count: 60) + Array(repeating: 100, count: 5)
        let estimate = try #require(RateEstimate(binCounts: bins, binSeconds: 0.5))
        #expect(estimate.events == 60)
        #expect(estimate.seconds == 30)
        #expect(estimate.eventsPerSecond == 2)
    }

    @Test func aRateStillRisingShowsInItsHalves() throws {
        let bins = (0..<60).map { 10 + $0 / 2 }
        let estimate = try #require(RateEstimate(binCounts: bins, binSeconds: 0.001))
        #expect(estimate.halvesDifference > 0.5)
    }

    @Test func tooFewBinsOrNoEventGiveNoEstimate() {
        #expect(RateEstimate(binCounts: [5, 5, 5], binSeconds: 0.001) == nil)
        #expect(RateEstimate(binCounts: Array(repeating: 0, count: 40), binSeconds: 0.001) == nil)
        #expect(RateEstimate(binCounts: Array(repeating: 1, count: 40), binSeconds: 0) == nil)
        #expect(RateEstimate(binCounts: Array(repeating: 1, count: 40), binSeconds: .nan) == nil)
    }
}
