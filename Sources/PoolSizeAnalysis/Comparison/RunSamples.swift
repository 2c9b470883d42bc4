import PoolSizeModel
/// One measured configuration: the axes `compare` matches trials on (results/README.md,
/// `summary.csv`). Axis values stay text so runs from a newer version with new pool kinds or
/// primitives still match.
package struct RunConfiguration: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package var workload: String
    package var pool: String
    package var qos: String
    package var primitive: String
    package var poolSize: Int

    package init(workload: String, pool: String, qos: String, primitive: String, poolSize: Int) {
        self.workload = workload
        self.pool = pool
        self.qos = qos
        self.primitive = primitive
        self.poolSize = poolSize
    }

    /// `queue-pool/default/none/32` (the workload is the same for a whole comparison).
    package var description: String { "\(pool)/\(qos)/\(primitive)/\(poolSize)" }

    package static func < (a: Self, b: Self) -> Bool {
        (a.workload, a.pool, a.qos, a.primitive, a.poolSize) < (b.workload, b.pool, b.qos, b.primitive, b.poolSize)
    }
}

/// What `compare` needs of one run: its identity and, per configuration, the repetitions'
/// throughput and p99 latency.
package struct RunSamples: Equatable, Sendable {
    package struct Samples: Equatable, Sendable {
        package var throughputPerSecond: [Double]
        /// Empty when the run recorded no latency (older runs).
        package var latencyP99Microseconds: [Double]

        package init(throughputPerSecond: [Double] = [], latencyP99Microseconds: [Double] = []) {
            self.throughputPerSecond = throughputPerSecond
            self.latencyP99Microseconds = latencyP99Microseconds
        }
    }

    /// The workload as `machine.json` states it; nil fields were not recorded.
    package struct Workload: Equatable, Sendable {
        package var name: String?
        package var cpuMicroseconds: Double?
        package var waitMicroseconds: Double?
        package var criticalMicroseconds: Double?
        package var jitter: String?

        package init(name: String? = nil, cpuMicroseconds: Double? = nil, waitMicroseconds: Double? = nil, criticalMicroseconds: Double? = nil, jitter: String? = nil) {
            self.name = name
            self.cpuMicroseconds = cpuMicroseconds
            self.waitMicroseconds = waitMicroseconds
            self.criticalMicroseconds = criticalMicroseconds
            self.jitter = jitter
        }
    }

    package var runID: String
    /// Effective cores the run sized for (`machine.cores.effective`).
    package var cores: Int?
    package var workload: Workload
    package var samples: [RunConfiguration: Samples]

    package init(runID: String, cores: Int?, workload: Workload = Workload(), samples: [RunConfiguration: Samples]) {
        self.runID = runID
        self.cores = cores
        self.workload = workload
        self.samples = samples
    }

    /// Workload names seen in the trials, falling back to the spec's name.
    package var workloadNames: Set<String> {
        let names = Set(samples.keys.map(\.workload))
        return names.isEmpty ? Set([workload.name].compactMap { $0 }) : names
    }
}
