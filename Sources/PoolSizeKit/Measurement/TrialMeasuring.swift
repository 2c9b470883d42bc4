import PoolSizeModel

/// One trial as the sweep asks for it.
public struct TrialRequest: Sendable, Equatable {
    public var combination: Combination
    public var size: Int
    public var settings: TrialSettings
    /// The low-load phase (one worker, seeds of its own) rather than a sweep trial.
    public var lowLoad: Bool
    /// Seed of the trial's random draws.
    public var seed: UInt64

    public init(combination: Combination, size: Int, settings: TrialSettings, lowLoad: Bool = false, seed: UInt64) {
        self.combination = combination
        self.size = size
        self.settings = settings
        self.lowLoad = lowLoad
        self.seed = seed
    }
}

/// The seam between the sweep's policy (order, repetitions, retries, auto sizes) and the
/// machine: measures one trial. `PoolTrialMeasurer` runs real pools; tests script the numbers.
public protocol TrialMeasuring {
    /// The trial's metrics, and the verdict of its critical section's integrity check, if any.
    func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (metrics: TrialMetrics, integrity: IntegrityReport?)
}

/// Runs a trial on a real pool from `pools` with a workload from `source`, under `runner`.
public struct PoolTrialMeasurer: TrialMeasuring {
    public let runner: TrialRunner
    public let pools: any PoolFactory
    public let source: any WorkloadSource

    public init(runner: TrialRunner = TrialRunner(), pools: any PoolFactory = SystemPoolFactory(), source: any WorkloadSource) {
        self.runner = runner
        self.pools = pools
        self.source = source
    }

    public func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (metrics: TrialMetrics, integrity: IntegrityReport?) {
        let section = source.supportsCriticalSections ? PrimitiveFactory.make(request.combination.primitive, readRatio: readRatio, seed: request.seed) : nil
        let workload = source.workload(seed: request.seed, criticalSection: section)
        let pool = pools.make(request.combination.pool, size: request.size, qos: request.combination.qos)
        defer { pool.shutdown() }
        let measurement = try runner.run(pool: pool, workload: workload, settings: request.settings)
        return (TrialMetrics(measurement, cores: cores), section?.verify())
    }
}
