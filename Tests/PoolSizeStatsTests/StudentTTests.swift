import Testing
import PoolSizeStats

@Suite struct StudentTTests {
    // Two-sided 95 % critical values t(0.975, df) from the usual 3-decimal table (e.g. NIST/SEMATECH
    // e-Handbook of Statistical Methods §1.3.6.7.2) for df ≤ 30; df 1000 is 1.96234 from the t
    // quantile function (scipy.stats.t.ppf(0.975, 1000)), between the table's 100 (1.984) and ∞ (1.960).
    @Test(arguments: [
        (1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962),
    ])
    func criticalValuesMatchTable(df: Int, expected: Double) {
        #expect(isClose(StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: df), expected, within: 0.0006))
    }

    @Test func largeDegreesOfFreedomApproachNormal() {
        // z(0.975) = 1.959964.
        #expect(isClose(StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: 1_000_000), 1.959964, within: 1e-5))
    }

    @Test func otherConfidenceLevels() {
        // Table: t(0.995, 4) = 4.604, t(0.95, 20) = 1.725.
        #expect(isClose(StudentT.criticalValue(confidence: 0.99, degreesOfFreedom: 4), 4.604, within: 0.0006))
        #expect(isClose(StudentT.criticalValue(confidence: 0.90, degreesOfFreedom: 20), 1.725, within: 0.0006))
    }

    @Test func cdfClosedForms() {
        // df 1 is the Cauchy distribution: F(t) = 1/2 + atan(t)/π; F(1) = 0.75.
        #expect(isClose(StudentT.cdf(1, degreesOfFreedom: 1), 0.75, within: 1e-12))
        // df 2: F(t) = 1/2 + t / (2√(t² + 2)); F(2) = 0.5 + 2/(2√6) = 0.908248.
        #expect(isClose(StudentT.cdf(2, degreesOfFreedom: 2), 0.908248, within: 1e-6))
        #expect(StudentT.cdf(0, degreesOfFreedom: 7) == 0.5)
        // Symmetry F(−t) = 1 − F(t).
        #expect(
            isClose(StudentT.cdf(-1.5, degreesOfFreedom: 7), 1 - StudentT.cdf(1.5, degreesOfFreedom: 7), within: 1e-14))
    }

    @Test func degenerateArguments() {
        #expect(StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: 0).isNaN)
        #expect(StudentT.criticalValue(confidence: 0, degreesOfFreedom: 3) == 0)
        #expect(StudentT.criticalValue(confidence: 1, degreesOfFreedom: 3) == .infinity)
        #expect(StudentT.cdf(.infinity, degreesOfFreedom: 3) == 1)
        #expect(StudentT.cdf(-.infinity, degreesOfFreedom: 3) == 0)
    }
}
