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
    /// The knee of the measured throughput curve and the formula's value on the same machine.
    package var kneePoolSize: Int?
    package var formulaQueueCountExact: Double?

    package init(
        path: String, runID: String? = nil, workload: String? = nil, cpuModel: String? = nil, cores: Int? = nil,
        waitCPURatioLower: Double? = nil, waitCPURatioUpper: Double? = nil, kneePoolSize: Int? = nil,
        formulaQueueCountExact: Double? = nil
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
    }
}
