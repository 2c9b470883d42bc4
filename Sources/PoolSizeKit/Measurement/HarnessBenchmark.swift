import PoolSizeModel

/// Measures the harness against the raw-dispatch reference (README "Harness overhead").
/// Runs alternate — reference first on even repeats, harness first on odd — so drift in the
/// machine's speed falls on both sides alike.
public struct HarnessBenchmark: Sendable {
    /// The burner every task body uses (calibrated once, shared by both sides).
    public let burner: CPUBurner
    /// Clocks for both sides.
    public let clocks: any MeasurementClocks
    /// Cores the harness metrics divide by.
    public let cores: Int

    /// A benchmark with a calibrated burner.
    public init(burner: CPUBurner, clocks: any MeasurementClocks = SystemClocks(), cores: Int) {
        self.burner = burner
        self.clocks = clocks
        self.cores = cores
    }

    /// Measures one point: tasks of `taskMicroseconds` CPU, no wait, on `size` queues, trials
    /// of `trialNanoseconds`, `repeats` runs of each side.
    public func measure(taskMicroseconds: Double, size: Int, trialNanoseconds: UInt64, repeats: Int) throws(PoolSizeError) -> HarnessPoint {
        let spec = WorkloadSpec(name: "harness-\(taskMicroseconds)us", cpuMicroseconds: taskMicroseconds, waitMicroseconds: 0)
        let workload = SyntheticWorkload(times: TaskTimes(spec: spec, seed: 1), burner: burner)
        let settings = TrialSettings.forTasks(ofNanoseconds: UInt64(taskMicroseconds * 1_000), durationNanoseconds: trialNanoseconds)
        var point = HarnessPoint(taskMicroseconds: taskMicroseconds, size: size, harnessPerSecond: [], referencePerSecond: [])
        for run in 0..<max(1, repeats) {
            for side in run % 2 == 0 ? [false, true] : [true, false] {
                if side {
                    let pool = QueuePool(size: size)
                    let measurement = try TrialRunner(clocks: clocks).run(pool: pool, workload: workload, settings: settings)
                    pool.shutdown()
                    point.harnessPerSecond.append(TrialMetrics(measurement, cores: cores).throughputPerSecond)
                } else {
                    let result = try RawDispatchReference(clocks: clocks).run(size: size, workload: workload, settings: settings)
                    point.referencePerSecond.append(result.throughputPerSecond)
                }
            }
        }
        return point
    }
}
