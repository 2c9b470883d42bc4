import PoolSizeModel

/// Measures the harness against the raw-dispatch reference (docs/guide/harness-overhead.md). The
/// sides of a point run in rotating order (reference, harness, own-queue, adaptive on the first
/// repeat, harness, own-queue, adaptive, reference on the second…), so drift in the machine's speed falls on
/// every side alike. Each side's context switches are read from getrusage around its runs.
package struct HarnessBenchmark: Sendable {
    /// The burner every task body uses (calibrated once, shared by all sides).
    package let burner: CPUBurner
    /// Clocks for all sides.
    package let clocks: any MeasurementClocks
    /// Cores the harness metrics divide by.
    package let cores: Int

    /// A benchmark with a calibrated burner.
    package init(burner: CPUBurner, clocks: any MeasurementClocks = SystemClocks(), cores: Int) {
        self.burner = burner
        self.clocks = clocks
        self.cores = cores
    }

    /// Measures one point: tasks of `taskMicroseconds` CPU, no wait, on `size` queues, runs
    /// of `trialNanoseconds`, `repeats` runs of each of `sides` (every side by default).
    package func measure(
        taskMicroseconds: Double, size: Int, trialNanoseconds: UInt64, repeats: Int,
        sides: [HarnessSide] = HarnessSide.allCases
    ) throws(PoolSizeError) -> HarnessPoint {
        let spec = WorkloadSpec(
            name: "harness-\(taskMicroseconds)us", cpuMicroseconds: taskMicroseconds, waitMicroseconds: 0)
        let workload = SyntheticWorkload(times: TaskTimes(spec: spec, seed: 1), burner: burner)
        let settings = TrialSettings.forTasks(
            ofNanoseconds: UInt64(taskMicroseconds * 1_000), durationNanoseconds: trialNanoseconds)
        var point = HarnessPoint(
            taskMicroseconds: taskMicroseconds, size: size, harnessPerSecond: [], referencePerSecond: [])
        for run in 0..<max(1, repeats) {
            for side in HarnessSide.order(of: sides, repeat: run) {
                let before = clocks.processUsage()
                let (throughput, tasks) = try measure(side, size: size, workload: workload, settings: settings)
                let after = clocks.processUsage()
                point.switches[side, default: SwitchTally()] =
                    point.switches[side, default: SwitchTally()]
                    + SwitchTally(
                        tasks: tasks,
                        voluntary: after.voluntaryContextSwitches - before.voluntaryContextSwitches,
                        involuntary: after.involuntaryContextSwitches - before.involuntaryContextSwitches)
                switch side {
                case .harness: point.harnessPerSecond.append(throughput)
                case .reference: point.referencePerSecond.append(throughput)
                case .ownQueue: point.ownQueuePerSecond.append(throughput)
                case .adaptive: point.adaptivePerSecond.append(throughput)
                }
            }
        }
        return point
    }

    /// One run of `side`: its window throughput and the tasks it ran in all.
    private func measure(_ side: HarnessSide, size: Int, workload: any Workload, settings: TrialSettings)
        throws(PoolSizeError) -> (Double, Int)
    {
        switch side {
        case .harness:
            let pool = QueuePool(size: size)
            let measurement = try TrialRunner(clocks: clocks).run(pool: pool, workload: workload, settings: settings)
            pool.shutdown()
            return (TrialMetrics(measurement, cores: cores).throughputPerSecond, measurement.samples.count)
        case .reference:
            let pool = QueuePool(size: size)
            let result = try RawDispatchReference(clocks: clocks).run(
                pool: pool, workload: workload, settings: settings)
            pool.shutdown()
            return (result.throughputPerSecond, result.tasksRun)
        case .ownQueue:
            let result = try RawDispatchReference(clocks: clocks).run(
                size: size, workload: workload, settings: settings)
            return (result.throughputPerSecond, result.tasksRun)
        case .adaptive:
            let pool = AdaptiveQueuePool(minimum: size, maximum: size, cores: cores)
            let result = try RawDispatchReference(clocks: clocks).run(
                pool: pool, workload: workload, settings: settings)
            pool.shutdown()
            return (result.throughputPerSecond, result.tasksRun)
        }
    }
}

extension HarnessSide {
    /// The order `sides` run in on repeat `run` (from 0): reference, harness, own-queue (those
    /// asked for) on the first, rotated by one on each later repeat, so each side runs first,
    /// second… equally often.
    static func order(of sides: [HarnessSide], repeat run: Int) -> [HarnessSide] {
        let base = [HarnessSide.reference, .harness, .ownQueue, .adaptive].filter(sides.contains)
        guard !base.isEmpty else { return [] }
        return (0..<base.count).map { base[($0 + run) % base.count] }
    }
}
