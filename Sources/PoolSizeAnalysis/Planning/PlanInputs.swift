import PoolSizeModel
/// What `poolsize plan` sizes for: a task's W and C, a target rate and the hosts' shape.
/// Times are in seconds and rates per second; `CapacityPlanner.plan` checks every field.
package struct PlanInputs: Equatable, Sendable {
    /// W: time a task waits (I/O, sleeps, remote calls) while holding its thread.
    package var waitSeconds: Double
    /// C: CPU time a task burns.
    package var cpuSeconds: Double
    /// λ: tasks per second across all hosts.
    package var targetRatePerSecond: Double
    package var coresPerHost: Int
    /// U in (0, 1]: the CPU share a host may be sized to use.
    package var targetUtilization: Double
    /// Spare capacity on top of the target rate, as a fraction (0.3 for 30%).
    package var headroom: Double
    /// The response time the `sloPercentile`-th percentile must stay within, if any.
    package var latencySLOSeconds: Double?
    /// Percentile in (0, 100) for the response-time figure and the SLO check.
    package var sloPercentile: Double
    /// Where W and C came from; a run adds its measured knee to the plan.
    package var measuredRun: MeasuredRun?

    package init(
        waitSeconds: Double, cpuSeconds: Double, targetRatePerSecond: Double, coresPerHost: Int,
        targetUtilization: Double = 0.8, headroom: Double = 0, latencySLOSeconds: Double? = nil,
        sloPercentile: Double = 99, measuredRun: MeasuredRun? = nil
    ) {
        self.waitSeconds = waitSeconds
        self.cpuSeconds = cpuSeconds
        self.targetRatePerSecond = targetRatePerSecond
        self.coresPerHost = coresPerHost
        self.targetUtilization = targetUtilization
        self.headroom = headroom
        self.latencySLOSeconds = latencySLOSeconds
        self.sloPercentile = sloPercentile
        self.measuredRun = measuredRun
    }
}

/// What a run directory tells the planner beyond W and C (`plan --from RUN_DIR`): the machine it
/// was measured on and the knee of its measured curve, so the plan can show formula and
/// measurement side by side. Every field but `path` is optional: a run that died part-way has
/// no `recommendation.json`.
package struct MeasuredRun: Equatable, Sendable, Codable {
    package var path: String
    package var runID: String?
    package var workload: String?
    package var cpuModel: String?
    /// Effective cores of the run's machine.
    package var cores: Int?
    /// 95% interval of the low-load W/C.
    package var waitCPURatioLower: Double?
    package var waitCPURatioUpper: Double?
    /// The knee of the measured throughput curve and the formula's value on the same machine;
    /// nil for an open-loop run, whose carried rate flattens at the offered rate, not a knee, and
    /// for a run whose curve still rose at its largest size (`stillRisingAt`).
    package var kneePoolSize: Int?
    package var formulaQueueCountExact: Double?
    /// The largest size the run measured, when throughput still rose there: the sweep found no
    /// knee and answered with the formula (`Recommendation.stillRisingAtQueueCount`).
    package var stillRisingAt: Int?
    /// The count the sweep recommended on its machine.
    package var recommendedQueueCount: Int?
    /// An open-loop run's answers: the size measured for each rate offered.
    package var openLoop: MeasuredOpenLoop?

    package init(
        path: String, runID: String? = nil, workload: String? = nil, cpuModel: String? = nil, cores: Int? = nil,
        waitCPURatioLower: Double? = nil, waitCPURatioUpper: Double? = nil, kneePoolSize: Int? = nil,
        formulaQueueCountExact: Double? = nil, stillRisingAt: Int? = nil, recommendedQueueCount: Int? = nil
    ) {
        self.path = path
        self.runID = runID
        self.workload = workload
        self.cpuModel = cpuModel
        self.cores = cores
        self.waitCPURatioLower = waitCPURatioLower
        self.waitCPURatioUpper = waitCPURatioUpper
        self.kneePoolSize = kneePoolSize
        self.formulaQueueCountExact = formulaQueueCountExact
        self.stillRisingAt = stillRisingAt
        self.recommendedQueueCount = recommendedQueueCount
    }
}

/// What an open-loop run measured (`sweep --arrival-rate`), for `plan --from`: per offered rate,
/// the smallest size that kept up and met the objective, on the run's machine.
package struct MeasuredOpenLoop: Equatable, Sendable, Codable {
    /// The objective, µs; nil when the run sized for keeping up only.
    package var latencySLOMicroseconds: Double?
    /// The percentile the objective applies to.
    package var sloPercentile: Double
    /// Each rate's answer, by rate.
    package var sizings: [RateSizing]
    /// The pool kind, tier and primitive these answers are for, when the run swept several (the
    /// best one at the highest rate); nil for one.
    package var combination: String?

    package init(
        latencySLOMicroseconds: Double?, sloPercentile: Double, sizings: [RateSizing], combination: String? = nil
    ) {
        self.latencySLOMicroseconds = latencySLOMicroseconds
        self.sloPercentile = sloPercentile
        self.sizings = sizings.sorted { $0.arrivalRate < $1.arrivalRate }
        self.combination = combination
    }

    /// JSON keys in the units convention of recommendation.json (`latency_slo_us`, `rate_sizings`).
    enum CodingKeys: String, CodingKey {
        case sloPercentile, combination
        case latencySLOMicroseconds = "latencySloUs"
        case sizings = "rateSizings"
    }

    /// The answer at the lowest measured rate not below `rate` (within the three decimals a run
    /// records); nil when `rate` is above every rate measured.
    package func sizing(atLeast rate: ArrivalRate) -> RateSizing? {
        sizings.first { $0.arrivalRate >= rate }
    }
}
