import Foundation

extension Sweep {
    /// What a sweep measures and how it recommends, as one value to keep, change and pass
    /// around. Every field has the default `poolsize sweep` uses.
    ///
    /// ```swift
    /// var configuration = Sweep.Configuration(name: "handle-request", sizes: .explicit([1, 2, 4, 8]))
    /// configuration.repetitions = 5
    /// let result = try Sweep(configuration) { handleRequest() }.run()
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// Names the workload in records and reports.
        public var name: String
        /// Pool sizes; `.auto` measures around cores × (1 + W/C) and extends while throughput
        /// still rises.
        public var sizes: SizeSelection
        /// Measured trials per size (4 or more let `compare` test significance).
        public var repetitions: Int
        /// Trials run and discarded first (thread creation, caches).
        public var warmupTrials: Int
        /// The pool kind under test.
        public var pool: PoolKind
        /// The QoS tier of its queues or threads.
        public var qos: QoSTier
        /// Length of one trial, to the millisecond (500 ms when nil; with an open `load`, the
        /// measured window, which by default holds 2,000 arrivals).
        public var trialLength: Duration?
        /// In the closed loop a trial ends before its length (`trialLength`, or 500 ms) once its
        /// throughput is known within this share of it (the half-width of its 95% interval, over
        /// at least 300 tasks); nil runs every trial its whole length. An open load runs every
        /// trial its whole length whatever this says.
        public var trialMargin: Double? = 0.02
        /// Cores to size for; nil for the affinity mask and cgroup quota's minimum.
        public var cores: Int?
        /// U in the formula, in (0, 1].
        public var targetUtilization: Double
        /// The knee is the smallest size within this share of the peak throughput.
        public var tolerance: Double
        /// Seed of the trial order.
        public var seed: UInt64
        /// `.closed` keeps every queue busy and sizes for throughput; `.open(plan)` offers tasks
        /// at the plan's rates whatever the pool is doing, and the recommendation is the smallest
        /// size that keeps up (and meets the latency objective, when the plan has one).
        public var load: Load

        /// A configuration; each parameter sets the field of the same name.
        public init(
            name: String = "closure", sizes: SizeSelection = .auto, repetitions: Int = 3, warmupTrials: Int = 1,
            pool: PoolKind = .queuePool, qos: QoSTier = .default, trialLength: Duration? = nil, cores: Int? = nil,
            targetUtilization: Double = 1, tolerance: Double = 0.05, seed: UInt64 = 42, load: Load = .closed
        ) {
            self.name = name
            self.sizes = sizes
            self.repetitions = repetitions
            self.warmupTrials = warmupTrials
            self.pool = pool
            self.qos = qos
            self.trialLength = trialLength
            self.cores = cores
            self.targetUtilization = targetUtilization
            self.tolerance = tolerance
            self.seed = seed
            self.load = load
        }

        /// The full plan: one pool kind and tier, no primitive; the task's W and C are measured,
        /// so the spec declares none and only names the workload.
        package func plan(description: String) -> SweepPlan {
            let trialMilliseconds = trialLength.map(Self.milliseconds)
            let spec = WorkloadSpec(
                name: name, description: description, cpuMicroseconds: 0, waitMicroseconds: 0,
                trialMilliseconds: trialMilliseconds ?? 500)
            var plan = SweepPlan(
                runID: name, spec: spec, sizes: sizes, repetitions: repetitions, warmupTrials: warmupTrials,
                cores: cores ?? MachineProbe.coreCount().effective, targetUtilization: targetUtilization,
                tolerance: tolerance,
                seed: seed, pools: [pool], tiers: [qos], primitives: [.none], trialMilliseconds: trialMilliseconds)
            plan.load = load
            // Where a trial cannot end early the margin is dropped, not refused: the default asks
            // for it. One out of range stays, for the sweep to refuse when it runs.
            do { try plan.setTrialMargin(trialMargin, refusing: false) } catch { plan.trialMargin = trialMargin }
            return plan
        }

        /// A duration to the nearest millisecond, the plan's unit; a negative one stays negative,
        /// so the plan's check refuses it as it refuses a negative count.
        static func milliseconds(_ duration: Duration) -> Int {
            let (seconds, attoseconds) = duration.components
            let exact = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
            return Int(exactly: exact.rounded()) ?? (exact < 0 ? -1 : Int.max)
        }
    }
}
