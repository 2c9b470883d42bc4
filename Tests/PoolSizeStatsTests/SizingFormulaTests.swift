import Testing
@testable import PoolSizeStats

@Suite struct SizingFormulaTests {
    @Test func goetzFormula() {
        // 2 × 1 × (1 + 15) = 32; 8 × 0.5 × (1 + 3) = 16.
        #expect(SizingFormula.queueCount(cores: 2, targetUtilization: 1, waitCPURatio: 15) == 32)
        #expect(SizingFormula.queueCount(cores: 8, targetUtilization: 0.5, waitCPURatio: 3) == 16)
        // CPU-bound work (W/C = 0) → one thread per core at full utilization.
        #expect(SizingFormula.queueCount(cores: 4, targetUtilization: 1, waitCPURatio: 0) == 4)
    }

    @Test func spreadOfWaitCPURatioPropagatesLinearly() throws {
        // W/C sample [2, 4, 6]: mean 4, SD 2, SE 2/√3 = 1.154701; t(0.975, 2) = 4.302653,
        // CI of the mean 4 ± 4.968275 = [−0.968275, 8.968275].
        // k = cores × U = 8 × 0.5 = 4: N = 4 × (1 + 4) = 20, SE_N = 4 × 1.154701 = 4.618802,
        // interval 4 × (1 + [−0.968275, 8.968275]) = [0.126900, 39.873100].
        let sample = try #require(Summary([2, 4, 6]))
        let n = SizingFormula.queueCount(cores: 8, targetUtilization: 0.5, waitCPURatio: sample)
        #expect(n.value == 20)
        #expect(isClose(n.standardError, 4.618802, within: 1e-6))
        let ci = try #require(n.interval95)
        #expect(isClose(ci.lower, 0.126900, within: 1e-5))
        #expect(isClose(ci.upper, 39.873100, within: 1e-5))
        #expect(ci.level == 0.95)
    }

    @Test func singleMeasurementHasNoInterval() throws {
        let n = SizingFormula.queueCount(cores: 2, targetUtilization: 1, waitCPURatio: try #require(Summary([15])))
        #expect(n == Estimate(value: 32, standardError: 0, interval95: nil))
    }

    @Test func idealThroughputKinksAtFormulaSize() {
        // W = 3 ms, C = 1 ms, 2 cores: rising part N/(W + C) = 250·N tasks/s, CPU limit
        // cores/C = 2000 tasks/s; they meet at N = 2000/250 = 8 = 2 × (1 + 3).
        func x(_ n: Double) -> Double {
            SizingFormula.idealThroughput(poolSize: n, cores: 2, waitSeconds: 0.003, cpuSeconds: 0.001)
        }
        #expect(isClose(x(1), 250, relative: 1e-12))
        #expect(isClose(x(4), 1000, relative: 1e-12))
        #expect(isClose(x(7), 1750, relative: 1e-12))
        #expect(isClose(x(8), 2000, relative: 1e-12))
        #expect(isClose(x(9), 2000, relative: 1e-12))
        #expect(isClose(x(64), 2000, relative: 1e-12))
        #expect(isClose(SizingFormula.idealKnee(cores: 2, waitSeconds: 0.003, cpuSeconds: 0.001), 8, relative: 1e-12))
    }
}
