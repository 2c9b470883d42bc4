import PoolSizeModel

/// The seam between the sweep's policy (order, repetitions, retries, auto sizes) and the
/// machine: measures one trial. `PoolTrialMeasurer` runs real pools; tests script the numbers.
package protocol TrialMeasuring {
    /// The trial's metrics, and the verdict of its critical section's integrity check, if any.
    func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    )
    /// What starting the task's program costs alone, when the task starts a process
    /// (`CommandSource.measureProcessStart`); nil otherwise.
    func measureProcessStart() -> ProcessStart?
    /// The sweep is over: whatever the measurer kept running between trials is stopped.
    func sweepEnded()
}

extension TrialMeasuring {
    /// No process per task.
    package func measureProcessStart() -> ProcessStart? { nil }

    /// Nothing kept between trials.
    package func sweepEnded() {}
}

/// Runs a trial on a real pool from `pools` with a workload from `source`, under `runner`.
package struct PoolTrialMeasurer: TrialMeasuring {
    /// Drives the closed loop.
    package let runner: TrialRunner
    /// Builds the trial's pool.
    package let pools: any PoolFactory
    /// Makes the trial's workload.
    package let source: any WorkloadSource

    /// Real pools from `pools`, tasks from `source`.
    package init(
        runner: TrialRunner = TrialRunner(), pools: any PoolFactory = SystemPoolFactory(), source: any WorkloadSource
    ) {
        self.runner = runner
        self.pools = pools
        self.source = source
    }

    /// A command's program started alone; nil for any other source.
    package func measureProcessStart() -> ProcessStart? {
        (source as? CommandSource)?.measureProcessStart()
    }

    /// Builds the pool and workload, runs the trial, and checks the critical section's integrity.
    package func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        let section =
            source.supportsCriticalSections
            ? PrimitiveFactory.make(request.combination.primitive, readRatio: readRatio, seed: request.seed) : nil
        let workload = source.workload(seed: request.seed, criticalSection: section)
        let pool = pools.make(request.combination.pool, size: request.size, qos: request.combination.qos)
        defer { pool.shutdown() }
        let watch = (source as? any WindowWatchingSource)?.windowWatch() ?? NoWindowWatch()
        // A trial that throws never closes its window: whatever the watch started stops here.
        defer { _ = watch.windowClosed() }
        let measurement = try request.loop.run(
            pool: pool, workload: workload, seed: request.seed, runner: runner, watch: watch)
        return (TrialMetrics(measurement, cores: cores), section?.verify())
    }
}
