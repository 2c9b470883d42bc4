import PoolSizeStats

/// The answer of a sweep: how many queues, and the evidence.
public struct Recommendation: Equatable, Sendable, Codable {
    /// Where the recommended count comes from.
    public enum Basis: String, Codable, Sendable {
        /// The measured knee of the throughput curve.
        case knee
        /// The formula, because the measured curve had no plateau to find a knee on.
        case formula
    }

    public var workload: String
    public var pool: PoolKind = .queuePool
    public var qos: QoSTier = .default
    public var primitive: PrimitiveKind = .none
    public var cores: Int
    /// W/C measured at low load (one worker).
    public var waitCPURatio: Double
    /// 95% t-interval of the per-task W/C at low load, when there were at least two tasks.
    public var waitCPURatioLower: Double?
    public var waitCPURatioUpper: Double?
    /// W/C the workload spec declares (synthetic workloads only).
    public var specWaitCPURatio: Double?
    public var cpuMicrosecondsPerTask: Double
    public var waitMicrosecondsPerTask: Double
    public var targetUtilization: Double
    /// cores × U × (1 + W/C), unrounded, with its standard error from W/C's spread.
    public var formulaQueueCountExact: Double
    public var formulaQueueCountStandardError: Double
    /// The formula's value rounded to a whole queue count (at least 1).
    public var formulaQueueCount: Int
    /// Smallest size whose throughput is not distinguishable from `tolerance` below the peak.
    public var kneePoolSize: Int
    public var kneeThroughputPerSecond: Double
    public var peakPoolSize: Int
    public var peakThroughputPerSecond: Double
    public var tolerance: Double
    public var recommendedQueueCount: Int
    public var basis: Basis
    /// Plain-English explanation; says why formula and knee differ when they differ by > 20%.
    public var reason: String
    /// Universal Scalability Law fit of the throughput curve, when the data support one.
    public var usl: USLFit?
    /// Why no USL fit is given, when it is refused.
    public var uslRefusal: String?
    /// Knee of the finite-source queueing model (M/M/c//N with c = cores, S = C, Z = W): where
    /// the knee would be if task times were exponential and CPU bursts collided at random.
    public var queueingModelKnee: Int?
    /// Largest number of tasks this combination ever ran at once, over all sizes.
    public var maxConcurrencyReached: Int = 0
    /// Integrity over all of the combination's trials: `ok`, `violated` or `n/a`.
    public var integrity: String = "n/a"

    public var combination: Combination { Combination(pool: pool, qos: qos, primitive: primitive) }

    public init(
        workload: String, cores: Int, waitCPURatio: Double, waitCPURatioLower: Double?, waitCPURatioUpper: Double?,
        specWaitCPURatio: Double?, cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double, targetUtilization: Double,
        formulaQueueCountExact: Double, formulaQueueCountStandardError: Double, formulaQueueCount: Int, kneePoolSize: Int,
        kneeThroughputPerSecond: Double, peakPoolSize: Int, peakThroughputPerSecond: Double, tolerance: Double,
        recommendedQueueCount: Int, basis: Basis, reason: String
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
        self.kneePoolSize = kneePoolSize
        self.kneeThroughputPerSecond = kneeThroughputPerSecond
        self.peakPoolSize = peakPoolSize
        self.peakThroughputPerSecond = peakThroughputPerSecond
        self.tolerance = tolerance
        self.recommendedQueueCount = recommendedQueueCount
        self.basis = basis
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case workload, pool, qos, primitive, cores, basis, reason, tolerance, usl, integrity
        case uslRefusal = "usl_refusal"
        case maxConcurrencyReached = "max_concurrency_reached"
        case queueingModelKnee = "queueing_model_knee"
        case waitCPURatio = "wait_cpu_ratio"
        case waitCPURatioLower = "wait_cpu_ratio_ci95_lower"
        case waitCPURatioUpper = "wait_cpu_ratio_ci95_upper"
        case specWaitCPURatio = "spec_wait_cpu_ratio"
        case cpuMicrosecondsPerTask = "cpu_us_per_task"
        case waitMicrosecondsPerTask = "wait_us_per_task"
        case targetUtilization = "target_utilization"
        case formulaQueueCountExact = "formula_queue_count_exact"
        case formulaQueueCountStandardError = "formula_queue_count_stderr"
        case formulaQueueCount = "formula_queue_count"
        case kneePoolSize = "knee_pool_size"
        case kneeThroughputPerSecond = "knee_throughput_per_s"
        case peakPoolSize = "peak_pool_size"
        case peakThroughputPerSecond = "peak_throughput_per_s"
        case recommendedQueueCount = "recommended_queue_count"
    }
}

/// `recommendation.json`: the best combination's recommendation at the top level (so a run with
/// one combination reads as one flat object), and every combination's under `combinations`.
public struct RecommendationSet: Encodable, Sendable {
    public var best: Recommendation
    public var combinations: [Recommendation]
    /// One line naming the best combination and how much worse the others are.
    public var verdict: String

    public init(best: Recommendation, combinations: [Recommendation], verdict: String) {
        self.best = best
        self.combinations = combinations
        self.verdict = verdict
    }

    enum ExtraKeys: String, CodingKey { case combinations, verdict }

    public func encode(to encoder: any Encoder) throws {
        try best.encode(to: encoder)
        var container = encoder.container(keyedBy: ExtraKeys.self)
        try container.encode(combinations, forKey: .combinations)
        try container.encode(verdict, forKey: .verdict)
    }
}
