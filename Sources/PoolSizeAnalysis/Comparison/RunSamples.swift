import PoolSizeModel
/// One measured configuration: the axes `compare` matches trials on (results/README.md,
/// `summary.csv`). Axis values stay text so runs from a newer version with new pool kinds or
/// primitives still match.
public struct RunConfiguration: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var workload: String
    public var pool: String
    public var qos: String
    public var primitive: String
    public var poolSize: Int

    public init(workload: String, pool: String, qos: String, primitive: String, poolSize: Int) {
        self.workload = workload
        self.pool = pool
        self.qos = qos
        self.primitive = primitive
        self.poolSize = poolSize
    }

    /// `queue-pool/default/none/32` (the workload is the same for a whole comparison).
    public var description: String { "\(pool)/\(qos)/\(primitive)/\(poolSize)" }

    public static func < (a: Self, b: Self) -> Bool {
        (a.workload, a.pool, a.qos, a.primitive, a.poolSize) < (b.workload, b.pool, b.qos, b.primitive, b.poolSize)
    }
}

/// What `compare` needs of one run: its identity and, per configuration, the repetitions'
/// throughput and p99 latency.
public struct RunSamples: Equatable, Sendable {
    public struct Samples: Equatable, Sendable {
        public var throughputPerSecond: [Double]
        /// Empty when the run recorded no latency (older runs).
        public var latencyP99Microseconds: [Double]

        public init(throughputPerSecond: [Double] = [], latencyP99Microseconds: [Double] = []) {
            self.throughputPerSecond = throughputPerSecond
            self.latencyP99Microseconds = latencyP99Microseconds
        }
    }

    /// The workload as `machine.json` states it; nil fields were not recorded.
    public struct Workload: Equatable, Sendable {
        public var name: String?
        public var cpuMicroseconds: Double?
        public var waitMicroseconds: Double?
        public var criticalMicroseconds: Double?
        public var jitter: String?

        public init(name: String? = nil, cpuMicroseconds: Double? = nil, waitMicroseconds: Double? = nil, criticalMicroseconds: Double? = nil, jitter: String? = nil) {
            self.name = name
            self.cpuMicroseconds = cpuMicroseconds
            self.waitMicroseconds = waitMicroseconds
            self.criticalMicroseconds = criticalMicroseconds
            self.jitter = jitter
        }
    }

    public var runID: String
    /// Effective cores the run sized for (`machine.cores.effective`).
    public var cores: Int?
    public var workload: Workload
    public var samples: [RunConfiguration: Samples]

    public init(runID: String, cores: Int?, workload: Workload = Workload(), samples: [RunConfiguration: Samples]) {
        self.runID = runID
        self.cores = cores
        self.workload = workload
        self.samples = samples
    }

    /// Workload names seen in the trials, falling back to the spec's name.
    public var workloadNames: Set<String> {
        let names = Set(samples.keys.map(\.workload))
        return names.isEmpty ? Set([workload.name].compactMap { $0 }) : names
    }
}
