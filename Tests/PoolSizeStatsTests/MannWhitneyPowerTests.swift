import Testing
import PoolSizeStats

@Suite struct MannWhitneyPowerTests {
    @Test func smallestPValueByCounting() {
        // 3 vs 3: C(6, 3) = 20 orderings, the two extremes give p = 2/20 = 0.1 ≥ 0.05.
        #expect(isClose(MannWhitney.smallestPValue(3, 3), 0.1, within: 1e-15))
        // 4 vs 4: C(8, 4) = 70 → 2/70 = 0.028571; 3 vs 5: C(8, 3) = 56 → 2/56 = 0.035714.
        #expect(isClose(MannWhitney.smallestPValue(4, 4), 2.0 / 70, within: 1e-15))
        #expect(isClose(MannWhitney.smallestPValue(3, 5), 2.0 / 56, within: 1e-15))
        #expect(isClose(MannWhitney.smallestPValue(5, 3), 2.0 / 56, within: 1e-15))
        // 1 vs 1: C(2, 1) = 2 → 2/2 = 1; empty samples have no test.
        #expect(MannWhitney.smallestPValue(1, 1) == 1)
        #expect(MannWhitney.smallestPValue(0, 4) == 1)
        #expect(MannWhitney.smallestPValue(50, 2) == 0)
    }

    @Test func smallestPValueIsWhatTheTestReturnsForSeparatedSamples() throws {
        let result = try #require(MannWhitney.test([1, 2, 3, 4], [5, 6, 7, 8]))
        #expect(isClose(result.pValue, MannWhitney.smallestPValue(4, 4), within: 1e-15))
    }
}
