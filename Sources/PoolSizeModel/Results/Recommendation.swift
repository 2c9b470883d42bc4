import PoolSizeStats

/// The answer of a sweep: how many queues, and the evidence.
public struct Recommendation: Equatable, Sendable, Codable {
    /// Where the recommended count comes from.
    public enum Basis: String, Codable, Sendable {
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
    /// C: mean thread CPU time per task at low load, µs; NaN when not recorded.
    public var cpuMicrosecondsPerTask: Double
    /// W: mean wait per task at low load, µs; NaN when not recorded.
    public var waitMicrosecondsPerTask: Double
    /// U, the CPU utilization the formula targets.
    public var targetUtilization: Double
    /// cores × U × (1 + W/C), unrounded, with its standard error from W/C's spread.
    public var formulaQueueCountExact: Double
    /// Standard error of `formulaQueueCountExact`, from W/C's.
    public var formulaQueueCountStandardError: Double
    /// The formula's value rounded to a whole queue count (at least 1).
    public var formulaQueueCount: Int
    /// Smallest size whose throughput is not distinguishable from `tolerance` below the peak.
    public var kneePoolSize: Int
    /// Mean throughput at the knee, tasks/s.
    public var kneeThroughputPerSecond: Double
    /// Size with the highest mean throughput.
    public var peakPoolSize: Int
    /// That throughput, tasks/s.
    public var peakThroughputPerSecond: Double
    /// The knee's tolerance below the peak.
    public var tolerance: Double
    /// The queue count to use.
    public var recommendedQueueCount: Int
    /// Whether the count is the knee or the formula.
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
    public var integrity: Integrity = .notApplicable
    /// Open-loop sweeps: the arrival rate the recommendation is for, tasks/s.
    public var arrivalRate: ArrivalRate?
    /// Open-loop sweeps: the latency objective, µs, from each task's intended arrival.
    public var latencySLOMicroseconds: Double?
    /// Open-loop sweeps: the percentile the objective applies to.
    public var sloPercentile: Double?
    /// Open-loop sweeps: whether a measured size met the objective (kept up, without one). When
    /// false, `recommendedQueueCount` is only the largest size measured and the reason says
    /// what would meet it.
    public var sloMet: Bool?
    /// Open-loop sweeps: that percentile measured at the recommended size (the worst of its
    /// trials), µs.
    public var sloMeasuredMicroseconds: Double?
    /// Open-loop sweeps: the smallest size M/M/c (Poisson arrivals, exponential task times of the
    /// low-load mean C + W, one shared queue) says meets the objective or, without one, keeps up.
    public var queueingModelQueueCount: Int?
    /// Open-loop sweeps: every size measured at the recommendation's rate, with its verdict.
    public var sizeVerdicts: [SLOVerdict]?
    /// Open-loop sweeps over a range of rates: the recommendation at each rate.
    public var rateSizings: [RateSizing]?

    /// The pool, tier and primitive this recommendation is for.
    public var combination: Combination { Combination(pool: pool, qos: qos, primitive: primitive) }

    /// A recommendation from its figures (`Recommender` computes them).
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

    /// Keys as recommendation.json spells them once snake_cased (`cpuUsPerTask` →
    /// `cpu_us_per_task`); the file's names predate the property names.
    enum CodingKeys: String, CodingKey {
        case workload, pool, qos, primitive, cores, basis, reason, tolerance, usl, integrity, uslRefusal
        case maxConcurrencyReached, queueingModelKnee, targetUtilization, formulaQueueCountExact, formulaQueueCount
        case kneePoolSize, peakPoolSize, recommendedQueueCount
        case sloPercentile, sloMet, queueingModelQueueCount, sizeVerdicts, rateSizings
        case arrivalRate = "arrivalRatePerS"
        case latencySLOMicroseconds = "latencySloUs"
        case sloMeasuredMicroseconds = "sloMeasuredUs"
        case waitCPURatio = "waitCpuRatio"
        case waitCPURatioLower = "waitCpuRatioCi95Lower"
        case waitCPURatioUpper = "waitCpuRatioCi95Upper"
        case specWaitCPURatio = "specWaitCpuRatio"
        case cpuMicrosecondsPerTask = "cpuUsPerTask"
        case waitMicrosecondsPerTask = "waitUsPerTask"
        case formulaQueueCountStandardError = "formulaQueueCountStderr"
        case kneeThroughputPerSecond = "kneeThroughputPerS"
        case peakThroughputPerSecond = "peakThroughputPerS"
    }

    /// Reads a recommendation written by this version or an earlier one: the keys every
    /// version wrote are required, the rest default (earlier runs measured one combination,
    /// queue-pool / default / none, and recorded no USL fit or integrity).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let formulaCount = try c.decode(Int.self, forKey: .formulaQueueCount)
        let knee = try c.decode(Int.self, forKey: .kneePoolSize)
        self.init(
            workload: try c.decode(String.self, forKey: .workload), cores: try c.decode(Int.self, forKey: .cores),
            waitCPURatio: try c.decode(Double.self, forKey: .waitCPURatio),
            waitCPURatioLower: try c.decodeIfPresent(Double.self, forKey: .waitCPURatioLower),
            waitCPURatioUpper: try c.decodeIfPresent(Double.self, forKey: .waitCPURatioUpper),
            specWaitCPURatio: try c.decodeIfPresent(Double.self, forKey: .specWaitCPURatio),
            cpuMicrosecondsPerTask: try c.decodeIfPresent(Double.self, forKey: .cpuMicrosecondsPerTask) ?? .nan,
            waitMicrosecondsPerTask: try c.decodeIfPresent(Double.self, forKey: .waitMicrosecondsPerTask) ?? .nan,
            targetUtilization: try c.decode(Double.self, forKey: .targetUtilization),
            formulaQueueCountExact: try c.decodeIfPresent(Double.self, forKey: .formulaQueueCountExact) ?? Double(formulaCount),
            formulaQueueCountStandardError: try c.decodeIfPresent(Double.self, forKey: .formulaQueueCountStandardError) ?? 0,
            formulaQueueCount: formulaCount, kneePoolSize: knee,
            kneeThroughputPerSecond: try c.decodeIfPresent(Double.self, forKey: .kneeThroughputPerSecond) ?? .nan,
            peakPoolSize: try c.decodeIfPresent(Int.self, forKey: .peakPoolSize) ?? knee,
            peakThroughputPerSecond: try c.decode(Double.self, forKey: .peakThroughputPerSecond),
            tolerance: try c.decodeIfPresent(Double.self, forKey: .tolerance) ?? 0.05,
            recommendedQueueCount: try c.decode(Int.self, forKey: .recommendedQueueCount),
            basis: try c.decodeIfPresent(Basis.self, forKey: .basis) ?? .knee,
            reason: try c.decodeIfPresent(String.self, forKey: .reason) ?? "")
        pool = try c.decodeIfPresent(PoolKind.self, forKey: .pool) ?? .queuePool
        qos = try c.decodeIfPresent(QoSTier.self, forKey: .qos) ?? .default
        primitive = try c.decodeIfPresent(PrimitiveKind.self, forKey: .primitive) ?? .none
        usl = try c.decodeIfPresent(USLFit.self, forKey: .usl)
        uslRefusal = try c.decodeIfPresent(String.self, forKey: .uslRefusal)
        queueingModelKnee = try c.decodeIfPresent(Int.self, forKey: .queueingModelKnee)
        maxConcurrencyReached = try c.decodeIfPresent(Int.self, forKey: .maxConcurrencyReached) ?? 0
        integrity = try c.decodeIfPresent(Integrity.self, forKey: .integrity) ?? .notApplicable
        arrivalRate = try c.decodeIfPresent(ArrivalRate.self, forKey: .arrivalRate)
        latencySLOMicroseconds = try c.decodeIfPresent(Double.self, forKey: .latencySLOMicroseconds)
        sloPercentile = try c.decodeIfPresent(Double.self, forKey: .sloPercentile)
        sloMet = try c.decodeIfPresent(Bool.self, forKey: .sloMet)
        sloMeasuredMicroseconds = try c.decodeIfPresent(Double.self, forKey: .sloMeasuredMicroseconds)
        queueingModelQueueCount = try c.decodeIfPresent(Int.self, forKey: .queueingModelQueueCount)
        sizeVerdicts = try c.decodeIfPresent([SLOVerdict].self, forKey: .sizeVerdicts)
        rateSizings = try c.decodeIfPresent([RateSizing].self, forKey: .rateSizings)
    }
}

/// One size at one arrival rate in an open-loop sweep, over its trials.
public struct SLOVerdict: Equatable, Sendable, Codable {
    /// Queues (threads) in the pool.
    public var poolSize: Int
    /// The offered arrival rate, tasks/s.
    public var arrivalRate: ArrivalRate
    /// Trials measured (valid ones).
    public var trials: Int
    /// Every trial kept up: carried ≥ 99% of the arrivals, backlog not growing.
    public var stable: Bool
    /// Mean tasks carried per second.
    public var achievedPerSecond: Double
    /// Mean arrivals per second in the windows.
    public var offeredPerSecond: Double
    /// Mean backlog (arrived, not finished).
    public var backlogMean: Double
    /// Median p50 latency of the trials, µs, from intended arrival.
    public var p50Microseconds: Double
    /// The objective's percentile, the worst trial's, µs (the p99 without an objective).
    public var percentileMicroseconds: Double
    /// Whether the size is stable and its percentile within the objective; nil without one.
    public var meetsSLO: Bool?
    /// That percentile as M/M/c predicts it for this size and rate, µs; nil where M/M/c is unstable.
    public var modelPercentileMicroseconds: Double?

    /// A verdict from its figures.
    public init(poolSize: Int, arrivalRate: ArrivalRate, trials: Int, stable: Bool, achievedPerSecond: Double, offeredPerSecond: Double, backlogMean: Double, p50Microseconds: Double, percentileMicroseconds: Double, meetsSLO: Bool?, modelPercentileMicroseconds: Double?) {
        self.poolSize = poolSize
        self.arrivalRate = arrivalRate
        self.trials = trials
        self.stable = stable
        self.achievedPerSecond = achievedPerSecond
        self.offeredPerSecond = offeredPerSecond
        self.backlogMean = backlogMean
        self.p50Microseconds = p50Microseconds
        self.percentileMicroseconds = percentileMicroseconds
        self.meetsSLO = meetsSLO
        self.modelPercentileMicroseconds = modelPercentileMicroseconds
    }

    enum CodingKeys: String, CodingKey {
        case poolSize, trials, stable, backlogMean, meetsSLO = "meetsSlo"
        case arrivalRate = "arrivalRatePerS"
        case achievedPerSecond = "achievedPerS"
        case offeredPerSecond = "offeredPerS"
        case p50Microseconds = "p50Us"
        case percentileMicroseconds = "percentileUs"
        case modelPercentileMicroseconds = "modelPercentileUs"
    }
}

/// The answer at one rate of an open-loop sweep over a range of rates.
public struct RateSizing: Equatable, Sendable, Codable {
    /// The offered arrival rate, tasks/s.
    public var arrivalRate: ArrivalRate
    /// The smallest measured size that met the objective (or kept up, without one); nil when none did.
    public var recommendedQueueCount: Int?
    /// The objective's percentile at that size, µs.
    public var percentileMicroseconds: Double?
    /// What M/M/c asks for at this rate.
    public var queueingModelQueueCount: Int?

    /// A row from its figures.
    public init(arrivalRate: ArrivalRate, recommendedQueueCount: Int?, percentileMicroseconds: Double?, queueingModelQueueCount: Int?) {
        self.arrivalRate = arrivalRate
        self.recommendedQueueCount = recommendedQueueCount
        self.percentileMicroseconds = percentileMicroseconds
        self.queueingModelQueueCount = queueingModelQueueCount
    }

    enum CodingKeys: String, CodingKey {
        case recommendedQueueCount, queueingModelQueueCount
        case arrivalRate = "arrivalRatePerS"
        case percentileMicroseconds = "percentileUs"
    }
}

/// `recommendation.json`: the best combination's recommendation at the top level (so a run with
/// one combination reads as one flat object), and every combination's under `combinations`.
public struct RecommendationSet: Equatable, Sendable, Codable {
    /// The combination with the highest peak throughput.
    public var best: Recommendation
    /// Every combination swept, the best first.
    public var combinations: [Recommendation]
    /// One line naming the best combination and how much worse the others are.
    public var verdict: String

    /// A set from its parts.
    public init(best: Recommendation, combinations: [Recommendation], verdict: String) {
        self.best = best
        self.combinations = combinations
        self.verdict = verdict
    }

    enum ExtraKeys: String, CodingKey { case combinations, verdict }

    /// A file of one combination (earlier versions) reads as a set of that one.
    public init(from decoder: any Decoder) throws {
        best = try Recommendation(from: decoder)
        let container = try decoder.container(keyedBy: ExtraKeys.self)
        combinations = try container.decodeIfPresent([Recommendation].self, forKey: .combinations) ?? [best]
        verdict = try container.decodeIfPresent(String.self, forKey: .verdict) ?? ""
    }

    /// Writes the best recommendation's keys at the top level, then `combinations` and `verdict`.
    public func encode(to encoder: any Encoder) throws {
        try best.encode(to: encoder)
        var container = encoder.container(keyedBy: ExtraKeys.self)
        try container.encode(combinations, forKey: .combinations)
        try container.encode(verdict, forKey: .verdict)
    }
}
