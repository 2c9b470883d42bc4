import Testing
import PoolSizeStats

@Suite struct PercentileTests {
    @Test func emptyAndOutOfRange() {
        #expect(percentile([], 50) == nil)
        #expect(percentile([1, 2], -1) == nil)
        #expect(percentile([1, 2], 100.5) == nil)
        #expect(percentile([1, 2], .nan) == nil)
    }

    @Test func typeSevenOnFourValues() {
        // x = [1,2,3,4], h = (n−1)·p/100 = 3p/100, P = x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
        #expect(percentile([1, 2, 3, 4], 0) == 1)  // h = 0
        #expect(percentile([1, 2, 3, 4], 25) == 1.75)  // h = 0.75 → 1 + 0.75·1
        #expect(percentile([1, 2, 3, 4], 50) == 2.5)  // h = 1.5 → 2 + 0.5·1
        #expect(isClose(percentile([1, 2, 3, 4], 90)!, 3.7, within: 1e-12))  // h = 2.7 → 3 + 0.7
        #expect(percentile([1, 2, 3, 4], 100) == 4)  // h = 3
    }

    @Test func unsortedInput() {
        // Sorted [15,20,35,40,50], p = 40: h = 4·0.4 = 1.6 → 20 + 0.6·(35 − 20) = 29
        // (numpy.percentile([15,20,35,40,50], 40) == 29.0).
        #expect(isClose(percentile([40, 15, 50, 35, 20], 40)!, 29, within: 1e-12))
    }

    @Test func singleValueIsEveryPercentile() {
        #expect(percentile([7], 0) == 7)
        #expect(percentile([7], 99) == 7)
    }
}
