/// `machine.json`: where a run ran and how it was asked for, written before the first trial so
/// even an interrupted run says where it ran. The same type is written by `sweep` and read by
/// `report`, `plot`, `compare` and `plan`; every key is optional when reading, so run
/// directories of earlier versions, which recorded less, still load.
public struct RunInfo: Equatable, Sendable, Codable {
    public var runID: String?
    public var poolsizeVersion: String?
    public var poolsizeCommit: String?
    /// The command line as typed, executable first.
    public var commandLine: [String]?
    public var seed: UInt64?
    public var workload: WorkloadSpec?
    /// Measured trials per size.
    public var repetitions: Int?
    public var warmupTrials: Int?
    public var pools: [PoolKind]?
    public var tiers: [QoSTier]?
    public var primitives: [PrimitiveKind]?
    public var targetUtilization: Double?
    public var tolerance: Double?
    public var machine: MachineFacts?

    public init(
        runID: String? = nil, poolsizeVersion: String? = nil, poolsizeCommit: String? = nil, commandLine: [String]? = nil,
        seed: UInt64? = nil, workload: WorkloadSpec? = nil, repetitions: Int? = nil, warmupTrials: Int? = nil,
        pools: [PoolKind]? = nil, tiers: [QoSTier]? = nil, primitives: [PrimitiveKind]? = nil,
        targetUtilization: Double? = nil, tolerance: Double? = nil, machine: MachineFacts? = nil
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
    }

    /// Keys as the file spells them once snake_cased (`runId` → `run_id`).
    enum CodingKeys: String, CodingKey {
        case runID = "runId"
        case poolsizeVersion, poolsizeCommit, commandLine, seed, workload, repetitions, warmupTrials
        case pools, tiers, primitives, targetUtilization, tolerance, machine
    }
}
