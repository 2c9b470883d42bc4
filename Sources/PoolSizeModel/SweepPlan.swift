import Foundation

/// Everything a sweep needs to know, validated by the CLI before anything runs. machine.json
/// records it whole (`RunInfo.plan`), written and read by this type, and `--resume` continues a
/// run only under an equal plan (`difference(from:)`).
package struct SweepPlan: Sendable, Equatable, Codable {
    /// Names the run directory and every record (`20261122-051503-io`).
    package var runID: String
    /// The workload as declared (the synthetic spec, or a placeholder naming a closure).
    package var spec: WorkloadSpec
    /// Pool sizes to measure, or `auto`.
    package var sizes: SizeSelection
    /// Measured trials per size.
    package var repetitions: Int
    /// Trials run and discarded before measuring (thread creation, page faults, caches).
    package var warmupTrials: Int
    /// Cores to size for.
    package var cores: Int
    /// U in the formula, in (0, 1].
    package var targetUtilization: Double
    /// The knee is the smallest size within this share of the peak throughput.
    package var tolerance: Double
    /// Seed of the trial order and of every random draw.
    package var seed: UInt64
    /// Pool kinds to sweep.
    package var pools: [PoolKind]
    /// QoS tiers to sweep.
    package var tiers: [QoSTier]
    /// Primitives guarding each task's critical section.
    package var primitives: [PrimitiveKind]
    /// Share of critical sections that only read (`barrier`, `rwlock`).
    package var readRatio: Double
    /// Overrides the spec's trial length.
    package var trialMilliseconds: Int?
    /// A closed-loop trial in poolsize's own pools ends before its planned length once its
    /// throughput is known within this share (the half-width of its 95% interval); nil: every
    /// trial runs its planned length. A plan recorded before it had none.
    package var trialMargin: Double?
    /// Also run every tier at once on a CPU-saturating workload and report their shares.
    package var contend: Bool
    /// A trial whose `other_load` exceeds `busyThreshold` (a share of the cores) is run again,
    /// up to `busyRetries` times, keeping the quietest attempt.
    package var busyRetries: Int = 2
    /// Share of the cores other processes may use during a trial before it is run again.
    package var busyThreshold: Double = 0.05
    /// Whether every size is measured (`grid`) or the knee is searched for (`adaptive`).
    package var search: SearchMode = .grid
    /// How tasks reach the pool: the closed loop, or arrivals at rates (`--arrival-rate`).
    package var load: Load = .closed
    /// What is sized: pools in poolsize's own process, or a server's pool (`--server`).
    package var target: SweepTarget = .inProcess

    /// A plan; every value is taken as given (the CLI validates flags before building one).
    package init(
        runID: String, spec: WorkloadSpec, sizes: SizeSelection, repetitions: Int = 3, warmupTrials: Int = 1,
        cores: Int, targetUtilization: Double = 1, tolerance: Double = 0.05, seed: UInt64 = 1,
        pools: [PoolKind] = [.queuePool], tiers: [QoSTier] = [.default], primitives: [PrimitiveKind] = [.none],
        readRatio: Double = 0.5, trialMilliseconds: Int? = nil, contend: Bool = false, busyRetries: Int = 2
    ) {
        self.runID = runID
        self.spec = spec
        self.sizes = sizes
        self.repetitions = repetitions
        self.warmupTrials = warmupTrials
        self.cores = cores
        self.targetUtilization = targetUtilization
        self.tolerance = tolerance
        self.seed = seed
        self.pools = pools
        self.tiers = tiers
        self.primitives = primitives
        self.readRatio = readRatio
        self.trialMilliseconds = trialMilliseconds
        self.contend = contend
        self.busyRetries = busyRetries
    }

    /// Keys as the file spells them once snake_cased (`runId` → `run_id`).
    enum CodingKeys: String, CodingKey {
        case runID = "runId"
        case spec, sizes, repetitions, warmupTrials, cores, targetUtilization, tolerance, seed, pools, tiers, primitives
        case readRatio, trialMilliseconds, trialMargin, contend, busyRetries, busyThreshold, search, load, target
    }

    /// Reads a plan; one recorded before a plan named its target sized pools in poolsize's own
    /// process.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        runID = try c.decode(String.self, forKey: .runID)
        spec = try c.decode(WorkloadSpec.self, forKey: .spec)
        sizes = try c.decode(SizeSelection.self, forKey: .sizes)
        repetitions = try c.decode(Int.self, forKey: .repetitions)
        warmupTrials = try c.decode(Int.self, forKey: .warmupTrials)
        cores = try c.decode(Int.self, forKey: .cores)
        targetUtilization = try c.decode(Double.self, forKey: .targetUtilization)
        tolerance = try c.decode(Double.self, forKey: .tolerance)
        seed = try c.decode(UInt64.self, forKey: .seed)
        pools = try c.decode([PoolKind].self, forKey: .pools)
        tiers = try c.decode([QoSTier].self, forKey: .tiers)
        primitives = try c.decode([PrimitiveKind].self, forKey: .primitives)
        readRatio = try c.decode(Double.self, forKey: .readRatio)
        trialMilliseconds = try c.decodeIfPresent(Int.self, forKey: .trialMilliseconds)
        trialMargin = try c.decodeIfPresent(Double.self, forKey: .trialMargin)
        contend = try c.decode(Bool.self, forKey: .contend)
        busyRetries = try c.decode(Int.self, forKey: .busyRetries)
        busyThreshold = try c.decode(Double.self, forKey: .busyThreshold)
        search = try c.decode(SearchMode.self, forKey: .search)
        load = try c.decode(Load.self, forKey: .load)
        target = try c.decodeIfPresent(SweepTarget.self, forKey: .target) ?? .inProcess
    }

    /// Every (pool, tier, primitive) the plan measures.
    package var combinations: [Combination] { Combination.product(pools: pools, tiers: tiers, primitives: primitives) }
}
