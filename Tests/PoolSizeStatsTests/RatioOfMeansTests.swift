import PoolSizeStats
import Testing

@Suite struct RatioOfMeansTests {
    @Test func emptyAndMismatchedAreNil() {
        #expect(RatioOfMeans(numerators: [], denominators: []) == nil)
        #expect(RatioOfMeans(numerators: [1, 2], denominators: [1]) == nil)
        #expect(RatioOfMeans(numerators: [1], denominators: [0]) == nil)
    }

    @Test func singlePairHasNoSpread() throws {
        let r = try #require(RatioOfMeans(numerators: [15], denominators: [1]))
        #expect(r.ratio == 15)
        #expect(r.standardError == 0)
        #expect(r.confidenceInterval95 == nil)
    }

    /// Exactly proportional pairs: every residual y − R·x is 0, so the error is 0.
    @Test func proportionalPairsHaveZeroError() throws {
        let r = try #require(RatioOfMeans(numerators: [30, 45, 60], denominators: [2, 3, 4]))
        #expect(r.ratio == 15)
        #expect(r.standardError < 1e-12)
    }

    /// y = [2, 4, 9], x = [1, 2, 3]: x̄ = 2, ȳ = 5, R = 2.5.
    /// s_x² = (1 + 0 + 1)/2 = 1; s_y² = (9 + 1 + 16)/2 = 13; s_xy = ((−1)(−3) + 0 + (1)(4))/2 = 3.5.
    /// Var = (13 − 2·2.5·3.5 + 6.25·1) / (3 · 4) = (13 − 17.5 + 6.25) / 12 = 1.75 / 12 = 0.1458333.
    /// SE = 0.381881; t(0.975, 2) = 4.302653 → half-width 1.643102.
    @Test func handComputedDeltaMethod() throws {
        let r = try #require(RatioOfMeans(numerators: [2, 4, 9], denominators: [1, 2, 3]))
        #expect(r.ratio == 2.5)
        #expect(abs(r.standardError - 0.381881) < 1e-6)
        let ci = try #require(r.confidenceInterval95)
        #expect(abs(ci.upper - (2.5 + 1.643102)) < 1e-5)
        #expect(abs(ci.lower - (2.5 - 1.643102)) < 1e-5)
        #expect(abs(r.relativeStandardError - 0.381881 / 2.5) < 1e-6)
    }
}
