/// `machine.json`: where a run ran and how it was asked for, written before the first trial so
/// even an interrupted run says where it ran. The same type is written by `sweep` and read by
/// `report`, `plot`, `compare` and `plan`; every key is optional when reading, so run
/// directories of earlier versions, which recorded less, still load.
package struct RunInfo: Equatable, Sendable, Codable {
    /// The run's id (the run directory's default name).
    package var runID: String?
    /// Version of the poolsize that ran the sweep.
    package var poolsizeVersion: String?
    /// Its git commit, when built from a checkout.
    package var poolsizeCommit: String?
    /// The command line as typed, executable first.
    package var commandLine: [String]?
    /// Seed of the trial order and draws.
    package var seed: UInt64?
    /// The workload spec swept.
    package var workload: WorkloadSpec?
    /// Measured trials per size.
    package var repetitions: Int?
    /// Warm-up trials discarded before measuring.
    package var warmupTrials: Int?
    /// Pool kinds swept.
    package var pools: [PoolKind]?
    /// QoS tiers swept.
    package var tiers: [QoSTier]?
    /// Primitives swept.
    package var primitives: [PrimitiveKind]?
    /// U of the formula.
    package var targetUtilization: Double?
    /// The knee's tolerance.
    package var tolerance: Double?
    /// The machine: cores, CPU, kernel, toolchain, effective nice per tier.
    package var machine: MachineFacts?
    /// The pool sizes planned: the explicit list, or the grid `auto` chose once W/C was
    /// measured (grown when it extended). Lets a report name the trials a partial run lacks.
    package var sizes: [Int]?
    /// Whether the sizes were chosen by `auto`.
    package var autoSizes: Bool?
    /// What an `--http` target said of itself in its `X-Poolsize-Server` header (a
    /// `poolsize serve`: its threads, CPU and delay per request); nil for any other target.
    package var server: String?
    /// How the sizes were chosen (`grid` or `adaptive`); nil in runs of earlier versions (grid).
    package var search: SearchMode?
    /// Measured trials the exhaustive grid would have run, recorded by an adaptive search so
    /// the summary can say what it saved.
    package var gridTrials: Int?
    /// The open-loop arrivals and latency objective (`--arrival-rate`, `--latency-slo`); nil
    /// for a closed-loop sweep.
    package var arrival: ArrivalPlan?
    /// The whole plan the sweep ran, as one value: what `--resume` compares.
    package var plan: SweepPlan?
    /// `--trial-ms` when given (it overrides the spec's trial length, and in an open loop sets
    /// the window exactly instead of one holding 2,000 arrivals); nil when the spec's applied.
    package var trialMilliseconds: Int?

    /// Run facts; every field may be absent.
    package init(
        runID: String? = nil, poolsizeVersion: String? = nil, poolsizeCommit: String? = nil,
        commandLine: [String]? = nil,
        seed: UInt64? = nil, workload: WorkloadSpec? = nil, repetitions: Int? = nil, warmupTrials: Int? = nil,
        pools: [PoolKind]? = nil, tiers: [QoSTier]? = nil, primitives: [PrimitiveKind]? = nil,
        targetUtilization: Double? = nil, tolerance: Double? = nil, machine: MachineFacts? = nil,
        sizes: [Int]? = nil, autoSizes: Bool? = nil
    ) {
        self.runID = runID
        self.poolsizeVersion = poolsizeVersion
        self.poolsizeCommit = poolsizeCommit
        self.commandLine = commandLine
        self.seed = seed
        self.workload = workload
        self.repetitions = repetitions
        self.warmupTrials = warmupTrials
        self.pools = pools
        self.tiers = tiers
        self.primitives = primitives
        self.targetUtilization = targetUtilization
        self.tolerance = tolerance
        self.machine = machine
        self.sizes = sizes
        self.autoSizes = autoSizes
    }

    /// Every trial the plan asks for, when the file records the plan: (combination, size,
    /// repetition) for each combination, planned size and repetition. nil for an adaptive
    /// search, whose trials are decided as it goes, and for a range of arrival rates.
    package var plannedTrials: [(combination: Combination, size: Int, repetition: Int)]? {
        guard search != .adaptive, arrival?.isRange != true, let pools, let tiers, let primitives, let sizes,
            let repetitions, repetitions > 0
        else { return nil }
        return Combination.product(pools: pools, tiers: tiers, primitives: primitives).flatMap { combination in
            sizes.flatMap { size in (1...repetitions).map { (combination, size, $0) } }
        }
    }

    /// Keys as the file spells them once snake_cased (`runId` → `run_id`).
    enum CodingKeys: String, CodingKey {
        case runID = "runId"
        case poolsizeVersion, poolsizeCommit, commandLine, seed, workload, repetitions, warmupTrials
        case pools, tiers, primitives, targetUtilization, tolerance, machine, sizes, autoSizes, server, search,
            gridTrials, arrival, plan
        case trialMilliseconds = "trialMs"
    }
}
