import Testing
import PoolSizeStats

@Suite struct MannWhitneyTests {
    @Test func emptySampleHasNoTest() {
        #expect(MannWhitney.test([], [1, 2]) == nil)
        #expect(MannWhitney.test([1], []) == nil)
    }

    @Test func identicalSamplesAreIndistinguishable() throws {
        // Every value tied across samples: U = n₁n₂/2 = 4.5 = its mean, z = 0, p = 1.
        let result = try #require(MannWhitney.test([1, 2, 3], [1, 2, 3]))
        #expect(result.u == 4.5)
        #expect(result.z == 0)
        #expect(result.pValue == 1)
    }

    @Test func fullySeparatedSamplesExact() throws {
        // No ties, n < 50 → exact. U = 0 (no a beats any b). Only one of the C(10,5) = 252
        // equally likely orderings gives U = 0 and one gives U = 25, so p = 2/252 = 0.0079365.
        // z (reported alongside): (|0 − 12.5| − 0.5)/√(5·5·11/12) = 12/4.787136 = 2.506718, negative.
        let result = try #require(MannWhitney.test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]))
        #expect(result.u == 0)
        #expect(isClose(result.pValue, 2.0 / 252, within: 1e-12))
        #expect(isClose(result.z, -2.506718, within: 1e-6))
        // Swapped: U counts pairs won by the first sample, 25 = n₁n₂; same p.
        let swapped = try #require(MannWhitney.test([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]))
        #expect(swapped.u == 25)
        #expect(isClose(swapped.pValue, 2.0 / 252, within: 1e-12))
        #expect(swapped.z > 0)
    }

    @Test func smallExactDistributionByEnumeration() throws {
        // a = [1, 4], b = [2, 3]: U = 2 (4 beats both). The 6 orderings of 2 a's among 4 ranks give
        // U = 0,1,2,2,3,4 → P(U ≤ 2) = 4/6, P(U ≥ 2) = 4/6 → p = min(1, 2·4/6) = 1.
        // a = [3, 4], b = [1, 2]: U = 4 → P(U ≥ 4) = 1/6 → p = 1/3.
        #expect(try #require(MannWhitney.test([1, 4], [2, 3])).pValue == 1)
        let extreme = try #require(MannWhitney.test([3, 4], [1, 2]))
        #expect(extreme.u == 4)
        #expect(isClose(extreme.pValue, 1.0 / 3, within: 1e-12))
    }

    @Test func tiesUseCorrectedNormalApproximation() throws {
        // a = [1,2,2,3], b = [2,3,4,5]. Ranks: 1→1; the three 2s share (2+3+4)/3 = 3; the two 3s
        // share 5.5; 4→7; 5→8. R_a = 1+3+3+5.5 = 12.5, U = 12.5 − 4·5/2 = 2.5; mean n₁n₂/2 = 8.
        // Ties t = 3, 2: Σ(t³ − t) = 24 + 6 = 30; N = 8:
        // var = 16/12 · (9 − 30/56) = 1.333333 · 8.464286 = 11.285714, sd = 3.359422.
        // z = −(5.5 − 0.5)/3.359422 = −1.488351; p = 2Φ(−1.488351) = 0.136658.
        let result = try #require(MannWhitney.test([1, 2, 2, 3], [2, 3, 4, 5]))
        #expect(result.u == 2.5)
        #expect(isClose(result.z, -1.488351, within: 1e-6))
        #expect(isClose(result.pValue, 0.136658, within: 1e-6))
    }

    @Test func largeSamplesUseNormalApproximation() throws {
        // 50 vs 50, fully separated, no ties → normal approximation (n ≥ 50):
        // U = 0, mean 1250, var = 2500·101/12 = 21041.667, sd = 145.057;
        // z = −1249.5/145.057 = −8.6139 → p = 2Φ(−8.6139) ≈ 7.1e-18.
        let a = (1...50).map(Double.init)
        let b = (51...100).map(Double.init)
        let result = try #require(MannWhitney.test(a, b))
        #expect(result.u == 0)
        #expect(isClose(result.z, -8.6139, within: 1e-4))
        #expect(result.pValue > 1e-18 && result.pValue < 1e-17)
    }
}
