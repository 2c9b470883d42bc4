import PoolSizeModel
/// The answer of `poolsize plan`: threads per host, hosts, and the queueing figures behind them.
/// Field names carry units (docs/conventions.md); `JSONExport` writes them snake_case, so the JSON has
/// `threads_per_host`, `hosts` and `utilization` at the top level.
public struct CapacityPlan: Equatable, Sendable, Codable {
    /// ceil(cores × U × (1 + W/C)) (Goetz).
    public var threadsPerHost: Int
    /// ceil(λ × (1 + headroom) / capacity per host).
    public var hosts: Int
    /// Expected CPU utilization of each host at the target rate: (λ / hosts) × C / cores.
    public var utilization: Double

    public var waitSeconds: Double
    public var cpuSeconds: Double
    public var waitCPURatio: Double
    public var targetRatePerSecond: Double
    public var coresPerHost: Int
    public var targetUtilization: Double
    public var headroom: Double

    /// cores × U × (1 + W/C) before rounding up.
    public var threadsExact: Double
    /// Tasks per second one host completes with its CPUs at U: cores × U / C.
    public var capacityPerHostPerSecond: Double
    /// λ / hosts.
    public var ratePerHostPerSecond: Double
    /// Per-host M/M/c figures at the target rate; nil when the queue is unstable (utilization 1).
    public var queue: QueueFigures?
    public var slo: SLOCheck?
    public var measured: MeasuredComparison?
    /// `declared` or the run directory W and C came from.
    public var source: String
    /// The model's assumptions in plain words, one sentence each.
    public var assumptions: [String]
    /// Things the reader must not miss (an unstable queue, a pool too small for its load).
    public var warnings: [String]
}

/// One host as an M/M/c queue: c = cores serving CPU bursts of mean C (service rate 1/C), fed
/// λ/hosts tasks per second (Erlang C formula; Kleinrock, *Queueing Systems* vol. 1, ch. 3).
public struct QueueFigures: Equatable, Sendable, Codable {
    /// Offered load a = λ_host × C: cores busy on average.
    public var busyCores: Double
    /// Erlang C(cores, a): the probability a task finds every core busy and waits for one.
    public var waitProbability: Double
    /// Wq = C(c, a) / (cμ − λ).
    public var meanQueueingDelaySeconds: Double
    /// W + C + Wq.
    public var meanResponseSeconds: Double
    public var responsePercentile: Double
    /// W + C + the `responsePercentile`-th percentile of the wait for a core.
    public var responsePercentileSeconds: Double
    /// Little's law L = λW (Little 1961) per host: tasks holding a thread (waiting, running or
    /// queued for a core), λ_host × (W + C + Wq).
    public var tasksInSystemPerHost: Double
    /// The same over all hosts, λ × (W + C + Wq).
    public var tasksInSystemTotal: Double
    /// Lq = λ_host × Wq: tasks queued for a core on a host.
    public var tasksQueuedForCPUPerHost: Double
    /// Erlang C with the threads as servers, offered `tasksInSystemPerHost` erlangs: the chance a
    /// task finds every thread taken (M/M/T approximation).
    public var threadWaitProbability: Double
}

/// Whether the response-time percentile meets `--latency-slo`, and what would make it.
public struct SLOCheck: Equatable, Sendable, Codable {
    public var latencySeconds: Double
    public var percentile: Double
    public var holds: Bool
    /// Fewest hosts (same cores, at least the planned hosts) meeting the SLO at the target
    /// rate; nil when even a million times the planned hosts would not.
    public var hostsNeeded: Int?
    /// Fewest cores per host meeting the SLO with the planned hosts.
    public var coresPerHostNeeded: Int?
    /// One sentence: why it holds, or how to make it hold.
    public var advice: String
}

/// The formula beside the run's measured knee (`plan --from`).
public struct MeasuredComparison: Equatable, Sendable, Codable {
    public var run: MeasuredRun
    /// knee / formula on the run's machine: how far the measured curve bent from the formula.
    public var kneeToFormula: Double?
    /// ceil(threadsExact × kneeToFormula): the plan's thread count corrected by the measurement.
    public var kneeAdjustedThreadsPerHost: Int?
    /// Threads per host at the ends of the 95% interval of W/C.
    public var threadsPerHostLower: Int?
    public var threadsPerHostUpper: Int?
}
