import PoolSizeStats

/// The answer of a sweep: how many queues, and the evidence. Its own properties are what every
/// answer has (the low-load W/C, the formula, the count and its reason); `sizing` is the kind of
/// answer with the evidence it rests on.
public struct Recommendation: Equatable, Sendable, Codable {
    /// Where the recommended count comes from, as recommendation.json names it (`basis`).
    package enum Basis: String, Codable, Sendable {
        /// The measured knee of the throughput curve.
        case knee
        /// The formula, because the measured curve had no plateau to find a knee on.
        case formula
        /// The smallest size whose latency percentile met the objective at the offered arrival
        /// rate (an open-loop sweep with `--latency-slo`).
        case latencySLO = "latency-slo"
        /// The smallest size that kept up with the offered arrival rate (an open-loop sweep
        /// without a latency objective).
        case stability
    }

    /// The workload's name.
    public var workload: String
    /// The pool kind measured.
    public var pool: PoolKind = .queuePool
    /// The QoS tier measured.
    public var qos: QoSTier = .default
    /// The primitive measured.
    public var primitive: PrimitiveKind = .none
    /// Cores the count is for.
    public var cores: Int
    /// W/C measured at low load (one worker).
    public var waitCPURatio: Double
    /// 95% t-interval of the per-task W/C at low load, when there were at least two tasks.
    public var waitCPURatioLower: Double?
    /// Upper end of that interval.
    public var waitCPURatioUpper: Double?
    /// W/C the workload spec declares (synthetic workloads only).
    public var specWaitCPURatio: Double?
    /// C: mean thread CPU time per task at low load, µs.
    public var cpuMicrosecondsPerTask: Double
    /// W: mean wait per task at low load, µs.
    public var waitMicrosecondsPerTask: Double
    /// U, the CPU utilization the formula targets.
    public var targetUtilization: Double
    /// cores × U × (1 + W/C), unrounded, with its standard error from W/C's spread.
    public var formulaQueueCountExact: Double
    /// Standard error of `formulaQueueCountExact`, from W/C's.
    public var formulaQueueCountStandardError: Double
    /// The formula's value rounded to a whole queue count (at least 1).
    public var formulaQueueCount: Int
    /// The queue count to use.
    public var recommendedQueueCount: Int
    /// How the count was chosen, with that answer's evidence: the throughput curve's (knee or
    /// formula; `curve`), or an arrival rate's (a latency objective, or keeping up; `latency`).
    public var sizing: Sizing
    /// Plain-English explanation; says why formula and knee differ when they differ by > 20%.
    /// Written from `explanation` by Output (`SizingProse`); read back as text from a run's file.
    public var reason: String
    /// The findings `reason` puts into words; nil when read from a file. Not part of equality:
    /// a recommendation read back equals the one written.
    package var explanation: SizingExplanation? {
        get { explanationBox.value }
        set { explanationBox = ExplanationBox(value: newValue) }
    }
    private var explanationBox = ExplanationBox(value: nil)
    /// Knee of the finite-source queueing model (M/M/c//N with c = cores, S = C, Z = W): where
    /// the knee would be if task times were exponential and CPU bursts collided at random.
    public var queueingModelKnee: Int?
    /// Largest number of tasks this combination ever ran at once, over all sizes.
    public var maxConcurrencyReached: Int = 0
    /// Integrity over all of the combination's trials: `ok`, `violated` or `n/a`.
    package var integrity: Integrity = .notApplicable
    /// The pool, tier and primitive this recommendation is for.
    public var combination: Combination { Combination(pool: pool, qos: qos, primitive: primitive) }

    /// A recommendation from its figures (`Recommender` computes them).
    public init(
        workload: String, cores: Int, waitCPURatio: Double, waitCPURatioLower: Double?, waitCPURatioUpper: Double?,
        specWaitCPURatio: Double?, cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double,
        targetUtilization: Double,
        formulaQueueCountExact: Double, formulaQueueCountStandardError: Double, formulaQueueCount: Int,
        recommendedQueueCount: Int, sizing: Sizing, reason: String
    ) {
        self.workload = workload
        self.cores = cores
        self.waitCPURatio = waitCPURatio
        self.waitCPURatioLower = waitCPURatioLower
        self.waitCPURatioUpper = waitCPURatioUpper
        self.specWaitCPURatio = specWaitCPURatio
        self.cpuMicrosecondsPerTask = cpuMicrosecondsPerTask
        self.waitMicrosecondsPerTask = waitMicrosecondsPerTask
        self.targetUtilization = targetUtilization
        self.formulaQueueCountExact = formulaQueueCountExact
        self.formulaQueueCountStandardError = formulaQueueCountStandardError
        self.formulaQueueCount = formulaQueueCount
        self.recommendedQueueCount = recommendedQueueCount
        self.sizing = sizing
        self.reason = reason
    }

    /// Keys as recommendation.json spells them once snake_cased (`cpuUsPerTask` →
    /// `cpu_us_per_task`); the file's names predate the property names. The sizing's evidence
    /// has its own keys, in the same object (`ThroughputCurve`, `LatencySizing`).
    enum CodingKeys: String, CodingKey {
        case workload, pool, qos, primitive, cores, basis, reason, integrity
        case maxConcurrencyReached, queueingModelKnee, targetUtilization, formulaQueueCountExact, formulaQueueCount
        case recommendedQueueCount
        case waitCPURatio = "waitCpuRatio"
        case waitCPURatioLower = "waitCpuRatioCi95Lower"
        case waitCPURatioUpper = "waitCpuRatioCi95Upper"
        case specWaitCPURatio = "specWaitCpuRatio"
        case cpuMicrosecondsPerTask = "cpuUsPerTask"
        case waitMicrosecondsPerTask = "waitUsPerTask"
        case formulaQueueCountStandardError = "formulaQueueCountStderr"
    }

    /// Reads a recommendation as `encode(to:)` writes it: every key it always writes is
    /// required; only the figures it leaves out when they are nil (the W/C interval, the spec's
    /// W/C, the USL fit or its refusal, the queueing model's knee, an open loop's curve) may be
    /// absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            workload: try c.decode(String.self, forKey: .workload), cores: try c.decode(Int.self, forKey: .cores),
            waitCPURatio: try c.decode(Double.self, forKey: .waitCPURatio),
            waitCPURatioLower: try c.decodeIfPresent(Double.self, forKey: .waitCPURatioLower),
            waitCPURatioUpper: try c.decodeIfPresent(Double.self, forKey: .waitCPURatioUpper),
            specWaitCPURatio: try c.decodeIfPresent(Double.self, forKey: .specWaitCPURatio),
            cpuMicrosecondsPerTask: try c.decode(Double.self, forKey: .cpuMicrosecondsPerTask),
            waitMicrosecondsPerTask: try c.decode(Double.self, forKey: .waitMicrosecondsPerTask),
            targetUtilization: try c.decode(Double.self, forKey: .targetUtilization),
            formulaQueueCountExact: try c.decode(Double.self, forKey: .formulaQueueCountExact),
            formulaQueueCountStandardError: try c.decode(Double.self, forKey: .formulaQueueCountStandardError),
            formulaQueueCount: try c.decode(Int.self, forKey: .formulaQueueCount),
            recommendedQueueCount: try c.decode(Int.self, forKey: .recommendedQueueCount),
            sizing: try Sizing(basis: c.decode(Basis.self, forKey: .basis), from: decoder),
            reason: try c.decode(String.self, forKey: .reason))
        pool = try c.decode(PoolKind.self, forKey: .pool)
        qos = try c.decode(QoSTier.self, forKey: .qos)
        primitive = try c.decode(PrimitiveKind.self, forKey: .primitive)
        queueingModelKnee = try c.decodeIfPresent(Int.self, forKey: .queueingModelKnee)
        maxConcurrencyReached = try c.decode(Int.self, forKey: .maxConcurrencyReached)
        integrity = try c.decode(Integrity.self, forKey: .integrity)
    }

    /// Writes every figure under the key `init(from:)` reads, and the sizing's evidence beside
    /// them (one flat object, as the file has always been).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(workload, forKey: .workload)
        try c.encode(pool, forKey: .pool)
        try c.encode(qos, forKey: .qos)
        try c.encode(primitive, forKey: .primitive)
        try c.encode(cores, forKey: .cores)
        try c.encode(waitCPURatio, forKey: .waitCPURatio)
        try c.encodeIfPresent(waitCPURatioLower, forKey: .waitCPURatioLower)
        try c.encodeIfPresent(waitCPURatioUpper, forKey: .waitCPURatioUpper)
        try c.encodeIfPresent(specWaitCPURatio, forKey: .specWaitCPURatio)
        try c.encode(cpuMicrosecondsPerTask, forKey: .cpuMicrosecondsPerTask)
        try c.encode(waitMicrosecondsPerTask, forKey: .waitMicrosecondsPerTask)
        try c.encode(targetUtilization, forKey: .targetUtilization)
        try c.encode(formulaQueueCountExact, forKey: .formulaQueueCountExact)
        try c.encode(formulaQueueCountStandardError, forKey: .formulaQueueCountStandardError)
        try c.encode(formulaQueueCount, forKey: .formulaQueueCount)
        try c.encode(recommendedQueueCount, forKey: .recommendedQueueCount)
        try c.encode(basis, forKey: .basis)
        try c.encode(reason, forKey: .reason)
        try c.encodeIfPresent(queueingModelKnee, forKey: .queueingModelKnee)
        try c.encode(maxConcurrencyReached, forKey: .maxConcurrencyReached)
        try c.encode(integrity, forKey: .integrity)
        try sizing.encode(to: encoder)
    }
}

/// Holds a recommendation's findings outside its equality and coding.
private struct ExplanationBox: Equatable, Sendable {
    var value: SizingExplanation?
    static func == (_: ExplanationBox, _: ExplanationBox) -> Bool { true }
}
