import PoolSizeKit
import Testing

/// The trial arithmetic on hand-made samples (nanoseconds).
@Suite struct TrialMetricsTests {
    static func usage(_ cpu: UInt64, vcs: Int = 0) -> ProcessUsage {
        ProcessUsage(
            cpuNanoseconds: cpu, voluntaryContextSwitches: vcs, involuntaryContextSwitches: 0, maxRSSKilobytes: 1000)
    }

    static func sample(_ start: UInt64, _ end: UInt64, cpu: UInt64, thread: Int32 = 1, nice: Int32 = 0) -> TaskSample {
        TaskSample(submitted: start, started: start, ended: end, cpuNanoseconds: cpu, thread: thread, nice: nice)
    }

    @Test func countsFractionsAtTheWindowEdges() {
        // Window [1000, 3000): a task 500–1500 is half inside, 1500–2500 wholly, 2500–3500 half.
        let m = TrialMeasurement(
            poolSize: 2, windowStart: 1000, windowEnd: 3000, usageAtStart: Self.usage(10_000),
            usageAtEnd: Self.usage(12_000, vcs: 5),
            samples: [
                Self.sample(500, 1500, cpu: 200, thread: 7),
                Self.sample(1500, 2500, cpu: 250, thread: 8, nice: 2),
                Self.sample(2500, 3500, cpu: 300, thread: 7),
            ],
            peakConcurrency: 2, processThreads: 9)
        let t = TrialMetrics(m, cores: 2)
        #expect(t.wallSeconds == 2e-6)
        #expect(t.tasks == 2.0)
        #expect(t.throughputPerSecond == 1_000_000)
        // Finished inside the window: the first two. C = (200 + 250) / 2 ns; W = (800 + 750) / 2 ns.
        #expect(t.cpuMicrosecondsPerTask == 0.225)
        #expect(t.waitMicrosecondsPerTask == 0.775)
        #expect(t.waitCPURatio == 1550.0 / 450.0)
        #expect(t.perTaskWaitCPURatios == [4.0, 3.0])
        // 2000 ns of process CPU over 2000 ns × 2 cores.
        #expect(t.utilization == 0.5)
        #expect(t.threads == 2)
        #expect(t.effectiveNice == 0)
        #expect(t.peakConcurrency == 2)
        #expect(t.voluntaryContextSwitches == 5)
        #expect(t.processThreads == 9)
    }

    @Test func emptyTrialIsZeroNotNaN() {
        let m = TrialMeasurement(
            poolSize: 1, windowStart: 0, windowEnd: 1_000_000, usageAtStart: Self.usage(0), usageAtEnd: Self.usage(0),
            samples: [], peakConcurrency: 0, processThreads: nil)
        let t = TrialMetrics(m, cores: 1)
        #expect(t.tasks == 0)
        #expect(t.throughputPerSecond == 0)
        #expect(t.waitCPURatio == 0)
        #expect(t.cpuMicrosecondsPerTask == 0)
    }

    @Test func waitNeverNegative() {
        // CPU read after wall can exceed wall by a clock tick: wait clamps to zero.
        #expect(Self.sample(0, 100, cpu: 120).waitNanoseconds == 0)
    }
}

/// Failed tasks are errors and nothing else: never throughput, never C or W.
@Suite struct FailedTaskMetricsTests {
    @Test func failedTasksAreNotThroughputNorCAndW() {
        var failed = TrialMetricsTests.sample(1200, 1300, cpu: 5)
        failed.failed = true
        var failedOutside = TrialMetricsTests.sample(2900, 3100, cpu: 5)
        failedOutside.failed = true
        let m = TrialMeasurement(
            poolSize: 2, windowStart: 1000, windowEnd: 3000, usageAtStart: TrialMetricsTests.usage(0),
            usageAtEnd: TrialMetricsTests.usage(0),
            samples: [TrialMetricsTests.sample(1500, 2500, cpu: 250), failed, failedOutside],
            peakConcurrency: 2, processThreads: 3)
        let t = TrialMetrics(m, cores: 2)
        // One task succeeded wholly inside; the failure inside counts once as an error; the one
        // ending past the window is in no figure.
        #expect(t.tasks == 1.0)
        #expect(t.errors == 1)
        #expect(t.throughputPerSecond == 500_000)
        #expect(t.cpuMicrosecondsPerTask == 0.25)
        #expect(t.waitMicrosecondsPerTask == 0.75)
        #expect(t.perTaskCPUMicroseconds == [0.25])
    }

    @Test func aTrialOfFailuresHasNoThroughput() {
        let samples = (0..<10).map { i -> TaskSample in
            var s = TrialMetricsTests.sample(1000 + UInt64(i) * 100, 1050 + UInt64(i) * 100, cpu: 1)
            s.failed = true
            return s
        }
        let m = TrialMeasurement(
            poolSize: 1, windowStart: 1000, windowEnd: 3000, usageAtStart: TrialMetricsTests.usage(0),
            usageAtEnd: TrialMetricsTests.usage(0),
            samples: samples, peakConcurrency: 1, processThreads: 2)
        let t = TrialMetrics(m, cores: 2)
        #expect(t.tasks == 0)
        #expect(t.throughputPerSecond == 0)
        #expect(t.errors == 10)
    }
}
