import PoolSizeModel
import Testing

/// The figures of the 4096-thread case: a window of microseconds counted fractions of tasks.
@Suite struct TrialValidityTests {
    static func record(tasks: Double = 500, window: Double = 0.5, throughput: Double = 1000, cpu: Double = 1000, utilization: Double = 0.5) -> TrialRecord {
        TrialRecord(
            runID: "r", workload: "io", pool: .threadPool, qos: .default, primitive: .none, poolSize: 2048, repetition: 1,
            tasks: tasks, wallSeconds: window, throughputPerSecond: throughput, cpuMicrosecondsPerTask: cpu,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: utilization, peakConcurrency: 2048, threads: 2048,
            effectiveNice: 0, integrity: .notApplicable)
    }

    @Test func aPlausibleTrialIsValid() {
        #expect(TrialValidity.problem(Self.record(), cores: 2) == nil)
        // At the ceiling itself (2 cores / 1 ms = 2000/s), within the measurement slack.
        #expect(TrialValidity.problem(Self.record(throughput: 2050), cores: 2) == nil)
    }

    @Test(arguments: [
        (record(tasks: 0.017, window: 0.000006, throughput: 2888), "only 0.017 tasks in a 6 µs window (at least 10 are needed)"),
        (record(utilization: 210_907.18), "CPU utilization 21090718% of 2 cores is above 100%"),
        (record(throughput: 2888, cpu: 0), "2888 tasks/s with no CPU time per task measured"),
        (record(throughput: 2888), "2888 tasks/s is above the 2000 tasks/s that 2 cores allow at C = 1000 µs"),
    ])
    func impossibleFiguresAreNamed(record: TrialRecord, reason: String) {
        #expect(TrialValidity.problem(record, cores: 2) == reason)
    }

    @Test func invalidTrialsAreFilteredOut() {
        var bad = Self.record(throughput: 2888)
        bad.invalidReason = TrialValidity.problem(bad, cores: 2)
        #expect([Self.record(), bad].valid == [Self.record()])
    }
}

@Suite struct TrialValidityOverrideTests {
    /// Sizing for 1 core on a 2-CPU machine: 180% of the 1 sizing core is 90% of the machine,
    /// and 1,500 tasks/s at C = 1 ms is within what 2 CPUs allow.
    @Test func aSmallerCoreCountDoesNotMakeRealFiguresImpossible() {
        let record = TrialValidityTests.record(throughput: 1500, utilization: 1.8)
        #expect(TrialValidity.problem(record, cores: 1, physicalCores: 2) == nil)
        #expect(TrialValidity.problem(record, cores: 1) != nil)
    }
}
