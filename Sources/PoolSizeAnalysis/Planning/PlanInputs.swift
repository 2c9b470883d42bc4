import PoolSizeModel
/// What `poolsize plan` sizes for: a task's W and C, a target rate and the hosts' shape.
/// Times are in seconds and rates per second; `CapacityPlanner.plan` checks every field.
public struct PlanInputs: Equatable, Sendable {
    /// W: time a task waits (I/O, sleeps, remote calls) while holding its thread.
    public var waitSeconds: Double
    /// C: CPU time a task burns.
    public var cpuSeconds: Double
    /// λ: tasks per second across all hosts.
    public var targetRatePerSecond: Double
    public var coresPerHost: Int
    /// U in (0, 1]: the CPU share a host may be sized to use.
    public var targetUtilization: Double
    /// Spare capacity on top of the target rate, as a fraction (0.3 for 30%).
    public var headroom: Double
    /// The response time the `sloPercentile`-th percentile must stay within, if any.
    public var latencySLOSeconds: Double?
    /// Percentile in (0, 100) for the response-time figure and the SLO check.
    public var sloPercentile: Double
    /// Where W and C came from; a run adds its measured knee to the plan.
    public var measuredRun: MeasuredRun?

    public init(
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
public struct MeasuredRun: Equatable, Sendable, Codable {
    public var path: String
    public var runID: String?
    public var workload: String?
    public var cpuModel: String?
    /// Effective cores of the run's machine.
    public var cores: Int?
    /// 95% interval of the low-load W/C.
    public var waitCPURatioLower: Double?
    public var waitCPURatioUpper: Double?
    /// The knee of the measured throughput curve and the formula's value on the same machine.
    public var kneePoolSize: Int?
    public var formulaQueueCountExact: Double?

    public init(
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
