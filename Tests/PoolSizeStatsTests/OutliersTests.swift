import Testing
import PoolSizeStats

@Suite struct OutliersTests {
    @Test func flagsTheStall() {
        // median 10; |x − 10| = [0, 0.1, 0.1, 0, 40] → sorted [0, 0, 0.1, 0.1, 40] → MAD 0.1.
        // M(50) = 0.6745·40/0.1 = 269.8 > 3.5; M(10.1) = 0.6745·0.1/0.1 = 0.6745 ≤ 3.5.
        let values = [10, 10.1, 9.9, 10, 50]
        #expect(isClose(Outliers.medianAbsoluteDeviation(values)!, 0.1, within: 1e-12))
        #expect(Outliers.madIndices(values) == [4])
        let z = Outliers.modifiedZScores(values)!
        #expect(isClose(z[4], 269.8, within: 1e-6))
        #expect(isClose(z[1], 0.6745, within: 1e-9))
    }

    @Test func thresholdIsConfigurable() {
        // Same data: |M(10.1)| = |M(9.9)| = 0.6745, so a threshold of 0.5 also flags 1 and 2.
        #expect(Outliers.madIndices([10, 10.1, 9.9, 10, 50], threshold: 0.5) == [1, 2, 4])
    }

    @Test func zeroMADFlagsNothing() {
        // More than half the values equal → MAD 0; dividing by it would flag every other value.
        #expect(Outliers.medianAbsoluteDeviation([5, 5, 5, 100]) == 0)
        #expect(Outliers.madIndices([5, 5, 5, 100]) == [])
    }

    @Test func tooFewValuesFlagNothing() {
        #expect(Outliers.madIndices([1, 1000]) == [])
        #expect(Outliers.medianAbsoluteDeviation([]) == nil)
        #expect(Outliers.medianAbsoluteDeviation([3]) == 0)
    }
}
