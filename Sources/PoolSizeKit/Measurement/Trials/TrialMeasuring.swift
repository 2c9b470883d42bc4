import PoolSizeModel

/// One trial as the sweep asks for it.
package struct TrialRequest: Sendable, Equatable {
    /// The pool kind, QoS tier and primitive of the trial.
    package var combination: Combination
    /// Queues (threads) in the pool.
    package var size: Int
    /// How long and how deep the trial runs.
    package var settings: TrialSettings
    /// The low-load phase (one worker, seeds of its own) rather than a sweep trial.
    package var lowLoad: Bool
    /// Seed of the trial's random draws.
    package var seed: UInt64
    /// Arrivals at a rate instead of the closed loop (`settings` then only sets the drain timeout).
    package var openLoop: OpenLoopTrial?

    /// A request; `seed` makes the trial's draws reproducible (the arrival times' too).
    package init(
        combination: Combination, size: Int, settings: TrialSettings, lowLoad: Bool = false, seed: UInt64,
        openLoop: OpenLoopTrial? = nil
    ) {
        self.combination = combination
        self.size = size
        self.settings = settings
        self.lowLoad = lowLoad
        self.seed = seed
        self.openLoop = openLoop
    }
}

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
}

extension TrialMeasuring {
    /// No process per task.
    package func measureProcessStart() -> ProcessStart? { nil }
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
        let measurement: TrialMeasurement
        if let openLoop = request.openLoop {
            // The arrival times draw from a stream of their own, apart from the tasks' jitter.
            measurement = try OpenLoopRunner(clocks: runner.clocks).run(
                pool: pool, workload: workload, trial: openLoop, seed: request.seed ^ 0xA77_1E55)
        } else {
            measurement = try runner.run(pool: pool, workload: workload, settings: request.settings)
        }
        return (TrialMetrics(measurement, cores: cores), section?.verify())
    }
}
