import PoolSizeModel
/// One measured configuration: the workload, the combination of axes and the pool size that
/// `compare` matches trials on. In JSON it reads flat: `workload, pool, qos, primitive,
/// pool_size`.
package struct RunConfiguration: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package var workload: String
    package var combination: Combination
    package var poolSize: Int

    package init(workload: String, combination: Combination, poolSize: Int) {
        self.workload = workload
        self.combination = combination
        self.poolSize = poolSize
    }

    /// The configuration a trial belongs to.
    package init(_ record: TrialRecord) {
        self.init(workload: record.workload, combination: record.combination, poolSize: record.poolSize)
    }

    /// `queue-pool/default/none/32` (the workload is the same for a whole comparison).
    package var description: String { "\(combination)/\(poolSize)" }

    package static func < (a: Self, b: Self) -> Bool {
        if a.workload != b.workload { return a.workload < b.workload }
        if a.combination != b.combination { return a.combination < b.combination }
        return a.poolSize < b.poolSize
    }

    enum CodingKeys: String, CodingKey { case workload, pool, qos, primitive, poolSize }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            workload: try c.decode(String.self, forKey: .workload),
            combination: Combination(
                pool: try c.decode(PoolKind.self, forKey: .pool), qos: try c.decode(QoSTier.self, forKey: .qos),
                primitive: try c.decode(PrimitiveKind.self, forKey: .primitive)),
            poolSize: try c.decode(Int.self, forKey: .poolSize))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(workload, forKey: .workload)
        try c.encode(combination.pool, forKey: .pool)
        try c.encode(combination.qos, forKey: .qos)
        try c.encode(combination.primitive, forKey: .primitive)
        try c.encode(poolSize, forKey: .poolSize)
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

    package var runID: String
    /// Effective cores the run sized for (`machine.cores.effective`).
    package var cores: Int?
    /// The workload spec machine.json recorded; nil when it recorded none.
    package var workload: WorkloadSpec?
    package var samples: [RunConfiguration: Samples]
    /// The run's answer per combination (recommended count, knee, peak), when it has one.
    package var sizing: [Combination: Sizing]
    /// An open-loop run's arrivals, objective and verdicts; nil for a closed loop.
    package var openLoop: OpenLoopSamples?
    /// A database sweep's transaction, as the SHA-256 of its script (`DatabaseSetup`); nil for
    /// another sweep, or one recorded before the digest was kept.
    package var scriptSHA256: String?

    package init(
        runID: String, cores: Int?, workload: WorkloadSpec? = nil, samples: [RunConfiguration: Samples],
        sizing: [Combination: Sizing] = [:], openLoop: OpenLoopSamples? = nil
    ) {
        self.runID = runID
        self.cores = cores
        self.workload = workload
        self.samples = samples
        self.sizing = sizing
        self.openLoop = openLoop
    }

    /// Workload names seen in the trials, falling back to the spec's name.
    package var workloadNames: Set<String> {
        let names = Set(samples.keys.map(\.workload))
        return names.isEmpty ? Set([workload?.name].compactMap { $0 }) : names
    }
}
