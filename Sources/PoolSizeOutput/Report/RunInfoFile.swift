/// What a report reads from `machine.json`. Every key is optional: a report says what the
/// file holds and leaves out what it does not.
public struct RunInfoFile: Equatable, Sendable, Codable {
    public var runID: String?
    public var poolsizeVersion: String?
    public var commandLine: [String]?
    public var seed: UInt64?
    public var repetitions: Int?
    public var warmupTrials: Int?
    public var workload: Workload?
    public var machine: Machine?

    public init(runID: String? = nil, poolsizeVersion: String? = nil, commandLine: [String]? = nil, seed: UInt64? = nil, repetitions: Int? = nil, warmupTrials: Int? = nil, workload: Workload? = nil, machine: Machine? = nil) {
        self.runID = runID
        self.poolsizeVersion = poolsizeVersion
        self.commandLine = commandLine
        self.seed = seed
        self.repetitions = repetitions
        self.warmupTrials = warmupTrials
        self.workload = workload
        self.machine = machine
    }

    enum CodingKeys: String, CodingKey {
        case seed, repetitions, workload, machine
        case runID = "run_id"
        case poolsizeVersion = "poolsize_version"
        case commandLine = "command_line"
        case warmupTrials = "warmup_trials"
    }

    public struct Workload: Equatable, Sendable, Codable {
        public var name: String?
        public var description: String?
        public var cpuMicroseconds: Double?
        public var waitMicroseconds: Double?

        public init(name: String? = nil, description: String? = nil, cpuMicroseconds: Double? = nil, waitMicroseconds: Double? = nil) {
            self.name = name
            self.description = description
            self.cpuMicroseconds = cpuMicroseconds
            self.waitMicroseconds = waitMicroseconds
        }

        enum CodingKeys: String, CodingKey {
            case name, description
            case cpuMicroseconds = "cpu_microseconds"
            case waitMicroseconds = "wait_microseconds"
        }
    }

    public struct Machine: Equatable, Sendable, Codable {
        public var cores: Cores?
        public var cpuModel: String?
        public var kernel: String?
        public var swiftVersion: String?
        public var timerSlackNanoseconds: Int?
        /// Nice each tier's workers measurably ran at, keyed by tier name.
        public var effectiveNiceByTier: [String: Int]?

        public init(cores: Cores? = nil, cpuModel: String? = nil, kernel: String? = nil, swiftVersion: String? = nil, timerSlackNanoseconds: Int? = nil, effectiveNiceByTier: [String: Int]? = nil) {
            self.cores = cores
            self.cpuModel = cpuModel
            self.kernel = kernel
            self.swiftVersion = swiftVersion
            self.timerSlackNanoseconds = timerSlackNanoseconds
            self.effectiveNiceByTier = effectiveNiceByTier
        }

        enum CodingKeys: String, CodingKey {
            case cores, kernel
            case cpuModel = "cpu_model"
            case swiftVersion = "swift_version"
            case timerSlackNanoseconds = "timer_slack_nanoseconds"
            case effectiveNiceByTier = "effective_nice_by_tier"
        }
    }

    public struct Cores: Equatable, Sendable, Codable {
        public var online: Int?
        public var affinity: Int?
        public var cgroupQuota: Int?
        public var override: Int?
        public var effective: Int?

        public init(online: Int? = nil, affinity: Int? = nil, cgroupQuota: Int? = nil, override: Int? = nil, effective: Int? = nil) {
            self.online = online
            self.affinity = affinity
            self.cgroupQuota = cgroupQuota
            self.override = override
            self.effective = effective
        }

        enum CodingKeys: String, CodingKey {
            case online, affinity, override, effective
            case cgroupQuota = "cgroup_quota"
        }

        /// `2 (min(affinity 2, no cgroup quota); 2 online)`.
        public var derivation: String {
            var text = effective.map(String.init) ?? "?"
            if let override { return text + " (--cores \(override))" }
            let quota = cgroupQuota.map { "cgroup quota \($0)" } ?? "no cgroup quota"
            text += " (min(affinity \(affinity.map(String.init) ?? "?"), \(quota))"
            if let online { text += "; \(online) online" }
            return text + ")"
        }
    }
}
