import Testing
import Foundation
@testable import PoolSizeStats

@Suite struct SummaryTests {
    @Test func emptyInputHasNoSummary() {
        #expect(Summary([]) == nil)
    }

    @Test func singleValueHasNoSpreadAndNoInterval() throws {
        let s = try #require(Summary([3.5]))
        #expect(s.count == 1)
        #expect(s.mean == 3.5)
        #expect(s.median == 3.5)
        #expect(s.standardDeviation == 0)
        #expect(s.minimum == 3.5 && s.maximum == 3.5)
        #expect(s.coefficientOfVariation == 0)
        #expect(s.confidenceInterval95 == nil)
    }

    @Test func zeroSpreadGivesDegenerateInterval() throws {
        let s = try #require(Summary([5, 5, 5]))
        #expect(s.mean == 5)
        #expect(s.standardDeviation == 0)
        #expect(s.coefficientOfVariation == 0)
        #expect(s.confidenceInterval95 == ConfidenceInterval(lower: 5, upper: 5, level: 0.95))
    }

    @Test func handComputedVector() throws {
        // [2,4,4,4,5,5,7,9]: Σ = 40, mean = 5.
        // Squared deviations 9+1+1+1+0+0+4+16 = 32, sample variance 32/7 = 4.571429,
        // SD = √4.571429 = 2.138090. Sorted middle pair (4, 5) → median 4.5.
        // t(0.975, df 7) = 2.364624 (table: 2.365); SE = 2.138090/√8 = 0.755929;
        // half-width = 2.364624 × 0.755929 = 1.787488 → CI [3.212512, 6.787488].
        // CV = 2.138090/5 = 0.427618.
        let s = try #require(Summary([2, 4, 4, 4, 5, 5, 7, 9]))
        #expect(s.count == 8)
        #expect(s.mean == 5)
        #expect(s.median == 4.5)
        #expect(isClose(s.standardDeviation, 2.138090, within: 1e-6))
        #expect(isClose(s.standardError, 0.755929, within: 1e-6))
        #expect(isClose(s.coefficientOfVariation, 0.427618, within: 1e-6))
        #expect(s.minimum == 2 && s.maximum == 9)
        let ci = try #require(s.confidenceInterval95)
        #expect(ci.level == 0.95)
        #expect(isClose(ci.lower, 3.212512, within: 1e-6))
        #expect(isClose(ci.upper, 6.787488, within: 1e-6))
        #expect(isClose(ci.halfWidth, 1.787488, within: 1e-6))
    }

    @Test func coefficientOfVariationUsesAbsoluteMeanAndIsNaNAtZeroMean() throws {
        // [−1, −3]: mean −2, SD √((1+1)/1) = √2 → CV √2/2 = 0.707107.
        #expect(isClose(try #require(Summary([-1, -3])).coefficientOfVariation, 0.707107, within: 1e-6))
        // [−1, 1]: mean 0, SD √2 > 0 → NaN by definition.
        #expect(try #require(Summary([-1, 1])).coefficientOfVariation.isNaN)
    }

    @Test func otherConfidenceLevels() throws {
        // [1, 3]: mean 2, SD √2, SE 1; t(0.95, df 1) = 6.313752 → 90 % CI 2 ± 6.313752.
        let ci = try #require(Summary([1, 3])?.confidenceInterval(level: 0.90))
        #expect(isClose(ci.lower, 2 - 6.313752, within: 1e-5))
        #expect(isClose(ci.upper, 2 + 6.313752, within: 1e-5))
    }

    @Test func roundTripsThroughCodable() throws {
        let s = try #require(Summary([2, 4, 4, 4, 5, 5, 7, 9]))
        let data = try JSONEncoder().encode(s)
        #expect(try JSONDecoder().decode(Summary.self, from: data) == s)
    }
}
