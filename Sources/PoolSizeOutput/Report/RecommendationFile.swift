/// What a report reads from `recommendation.json`. Its own type rather than `Recommendation`
/// so that a file from an older or newer version still loads: the keys results/README.md
/// promises are required, everything else is optional and used when present.
public struct RecommendationFile: Equatable, Sendable, Codable {
    public var workload: String
    public var cores: Int
    public var waitCPURatio: Double
    public var targetUtilization: Double
    public var formulaQueueCount: Int
    public var kneePoolSize: Int
    public var peakThroughputPerSecond: Double
    public var recommendedQueueCount: Int

    public var waitCPURatioLower: Double?
    public var waitCPURatioUpper: Double?
    public var specWaitCPURatio: Double?
    public var cpuMicrosecondsPerTask: Double?
    public var waitMicrosecondsPerTask: Double?
    public var formulaQueueCountExact: Double?
    public var formulaQueueCountStandardError: Double?
    public var kneeThroughputPerSecond: Double?
    public var peakPoolSize: Int?
    public var tolerance: Double?
    public var basis: String?
    public var reason: String?
    /// The combination this recommendation is for (runs over several pools, tiers or primitives).
    public var pool: String?
    public var qos: String?
    public var primitive: String?
    /// The Universal Scalability Law fit, or nil with `uslRefusal` saying why not.
    public var usl: USLParameters?
    public var uslRefusal: String?
    /// Most tasks the combination ever ran at once, over all sizes.
    public var maxConcurrencyReached: Int?
    /// `ok`, `violated` or `n/a` over the combination's trials.
    public var integrity: String?
    /// One recommendation per (pool, qos, primitive) combination.
    public var combinations: [RecommendationFile]?
    /// One line naming the best combination and how much worse the others are.
    public var verdict: String?

    public init(
        workload: String, cores: Int, waitCPURatio: Double, targetUtilization: Double, formulaQueueCount: Int,
        kneePoolSize: Int, peakThroughputPerSecond: Double, recommendedQueueCount: Int
    ) {
        self.workload = workload
        self.cores = cores
        self.waitCPURatio = waitCPURatio
        self.targetUtilization = targetUtilization
        self.formulaQueueCount = formulaQueueCount
        self.kneePoolSize = kneePoolSize
        self.peakThroughputPerSecond = peakThroughputPerSecond
        self.recommendedQueueCount = recommendedQueueCount
    }

    /// The formula's unrounded value when the file has it.
    public var formulaExact: Double { formulaQueueCountExact ?? Double(formulaQueueCount) }

    enum CodingKeys: String, CodingKey {
        case workload, cores, tolerance, basis, reason, pool, qos, primitive, usl, combinations, integrity, verdict
        case waitCPURatio = "wait_cpu_ratio"
        case targetUtilization = "target_utilization"
        case formulaQueueCount = "formula_queue_count"
        case kneePoolSize = "knee_pool_size"
        case peakThroughputPerSecond = "peak_throughput_per_s"
        case recommendedQueueCount = "recommended_queue_count"
        case waitCPURatioLower = "wait_cpu_ratio_ci95_lower"
        case waitCPURatioUpper = "wait_cpu_ratio_ci95_upper"
        case specWaitCPURatio = "spec_wait_cpu_ratio"
        case cpuMicrosecondsPerTask = "cpu_us_per_task"
        case waitMicrosecondsPerTask = "wait_us_per_task"
        case formulaQueueCountExact = "formula_queue_count_exact"
        case formulaQueueCountStandardError = "formula_queue_count_stderr"
        case kneeThroughputPerSecond = "knee_throughput_per_s"
        case peakPoolSize = "peak_pool_size"
        case uslRefusal = "usl_refusal"
        case maxConcurrencyReached = "max_concurrency_reached"
    }
}

/// The USL coefficients as `recommendation.json` stores them (`USLFit`, snake_case).
public struct USLParameters: Equatable, Sendable, Codable {
    public var sigma: Double
    public var kappa: Double
    public var lambda: Double
    public var sigmaStandardError: Double?
    public var kappaStandardError: Double?
    public var lambdaStandardError: Double?
    public var rSquared: Double?
    public var peakConcurrency: Double?

    public init(sigma: Double, kappa: Double, lambda: Double, sigmaStandardError: Double? = nil, kappaStandardError: Double? = nil, lambdaStandardError: Double? = nil, rSquared: Double? = nil, peakConcurrency: Double? = nil) {
        self.sigma = sigma
        self.kappa = kappa
        self.lambda = lambda
        self.sigmaStandardError = sigmaStandardError
        self.kappaStandardError = kappaStandardError
        self.lambdaStandardError = lambdaStandardError
        self.rSquared = rSquared
        self.peakConcurrency = peakConcurrency
    }

    enum CodingKeys: String, CodingKey {
        case sigma, kappa, lambda
        case sigmaStandardError = "sigma_standard_error"
        case kappaStandardError = "kappa_standard_error"
        case lambdaStandardError = "lambda_standard_error"
        case rSquared = "r_squared"
        case peakConcurrency = "peak_concurrency"
    }

    /// X(N) = λN / (1 + σ(N − 1) + κN(N − 1)).
    public func throughput(at n: Double) -> Double {
        lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))
    }
}
