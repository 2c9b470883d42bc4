extension Sweep {
    /// Sweeps a closure, configured in place, the spelling before one initialiser took a
    /// `Configuration` (`init(_:body:)` with these as its fields): each task calls `body` once.
    /// Its thread CPU time is C and the rest of its wall time W, measured.
    /// - Parameters:
    ///   - name: names the workload in records and reports.
    ///   - sizes: pool sizes; `.auto` measures around cores × (1 + W/C) and extends while
    ///     throughput still rises.
    ///   - repetitions: measured trials per size (4 or more let `compare` test significance).
    ///   - warmupTrials: trials run and discarded first (thread creation, caches).
    ///   - pool: the pool kind under test.
    ///   - qos: the QoS tier of its queues or threads.
    ///   - trialMilliseconds: length of one trial (500 ms when nil; with an open `load`, the
    ///     measured window, which by default holds 2,000 arrivals).
    ///   - cores: cores to size for (default: the affinity mask and cgroup quota's minimum).
    ///   - targetUtilization: U in the formula, in (0, 1].
    ///   - tolerance: the knee is the smallest size within this share of the peak throughput.
    ///   - seed: seed of the trial order.
    ///   - load: `.closed` keeps every queue busy and sizes for throughput; `.open(plan)` offers
    ///     tasks at the plan's rates whatever the pool is doing, and the recommendation is the
    ///     smallest size that keeps up (and meets the latency objective, when the plan has one).
    ///   - body: one task.
    @available(*, deprecated, message: "pass a Sweep.Configuration: Sweep(.init(name: …, sizes: …)) { … }")
    public init(
        name: String = "closure", sizes: SizeSelection = .auto, repetitions: Int = 3, warmupTrials: Int = 1,
        pool: PoolKind = .queuePool, qos: QoSTier = .default, trialMilliseconds: Int? = nil, cores: Int? = nil,
        targetUtilization: Double = 1, tolerance: Double = 0.05, seed: UInt64 = 42, load: Load = .closed,
        body: @escaping @Sendable () -> Void
    ) {
        self.init(
            Configuration(
                name: name, sizes: sizes, repetitions: repetitions, warmupTrials: warmupTrials, pool: pool, qos: qos,
                trialLength: trialMilliseconds.map { .milliseconds($0) }, cores: cores,
                targetUtilization: targetUtilization,
                tolerance: tolerance,
                seed: seed, load: load),
            body: body)
    }
}

extension Sweep.Configuration {
    /// Length of one trial in milliseconds, the spelling before `trialLength`.
    @available(*, deprecated, renamed: "trialLength")
    public var trialMilliseconds: Int? {
        get { trialLength.map(Self.milliseconds) }
        set { trialLength = newValue.map { .milliseconds($0) } }
    }

    /// A configuration with the trial length in milliseconds, the spelling before `trialLength`.
    @available(*, deprecated, message: "pass trialLength: .milliseconds(n)")
    public init(
        name: String = "closure", sizes: SizeSelection = .auto, repetitions: Int = 3, warmupTrials: Int = 1,
        pool: PoolKind = .queuePool, qos: QoSTier = .default, trialMilliseconds: Int?, cores: Int? = nil,
        targetUtilization: Double = 1, tolerance: Double = 0.05, seed: UInt64 = 42, load: Load = .closed
    ) {
        self.init(
            name: name, sizes: sizes, repetitions: repetitions, warmupTrials: warmupTrials, pool: pool, qos: qos,
            trialLength: trialMilliseconds.map { .milliseconds($0) }, cores: cores,
            targetUtilization: targetUtilization, tolerance: tolerance, seed: seed, load: load)
    }
}
