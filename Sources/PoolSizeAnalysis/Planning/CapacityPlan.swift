import PoolSizeModel
/// The answer of `poolsize plan`: threads per host, hosts, and the queueing figures behind them.
/// Field names carry units (docs/conventions.md); `JSONExport` writes them snake_case, so the JSON has
/// `threads_per_host`, `hosts` and `utilization` at the top level.
package struct CapacityPlan: Equatable, Sendable, Codable {
    /// ceil(cores × U × (1 + W/C)) (Goetz).
    package var threadsPerHost: Int
    /// ceil(λ × (1 + headroom) / capacity per host).
    package var hosts: Int
    /// Expected CPU utilization of each host at the target rate: (λ / hosts) × C / cores.
    package var utilization: Double

    package var waitSeconds: Double
    package var cpuSeconds: Double
    package var waitCPURatio: Double
    package var targetRatePerSecond: Double
    package var coresPerHost: Int
    package var targetUtilization: Double
    package var headroom: Double

    /// cores × U × (1 + W/C) before rounding up.
    package var threadsExact: Double
    /// Tasks per second one host completes with its CPUs at U: cores × U / C.
    package var capacityPerHostPerSecond: Double
    /// λ / hosts.
    package var ratePerHostPerSecond: Double
    /// Per-host M/M/c figures at the target rate; nil when the queue is unstable (utilization 1).
    package var queue: QueueFigures?
    package var slo: SLOCheck?
    package var measured: MeasuredComparison?
    /// `declared` or the run directory W and C came from.
    package var source: String
    /// The model's assumptions in plain words, one sentence each.
    package var assumptions: [String]
    /// Things the reader must not miss (an unstable queue, a pool too small for its load).
    package var warnings: [String]
}

/// One host as an M/M/c queue: c = cores serving CPU bursts of mean C (service rate 1/C), fed
/// λ/hosts tasks per second (Erlang C formula; Kleinrock, *Queueing Systems* vol. 1, ch. 3).
package struct QueueFigures: Equatable, Sendable, Codable {
    /// Offered load a = λ_host × C: cores busy on average.
    package var busyCores: Double
    /// Erlang C(cores, a): the probability a task finds every core busy and waits for one.
    package var waitProbability: Double
    /// Wq = C(c, a) / (cμ − λ).
    package var meanQueueingDelaySeconds: Double
    /// W + C + Wq.
    package var meanResponseSeconds: Double
    package var responsePercentile: Double
    /// W + C + the `responsePercentile`-th percentile of the wait for a core.
    package var responsePercentileSeconds: Double
    /// Little's law L = λW (Little 1961) per host: tasks holding a thread (waiting, running or
    /// queued for a core), λ_host × (W + C + Wq).
    package var tasksInSystemPerHost: Double
    /// The same over all hosts, λ × (W + C + Wq).
    package var tasksInSystemTotal: Double
    /// Lq = λ_host × Wq: tasks queued for a core on a host.
    package var tasksQueuedForCPUPerHost: Double
    /// Erlang C with the threads as servers, offered `tasksInSystemPerHost` erlangs: the chance a
    /// task finds every thread taken (M/M/T approximation).
    package var threadWaitProbability: Double
}

/// Whether the response-time percentile meets `--latency-slo`, and what would make it.
package struct SLOCheck: Equatable, Sendable, Codable {
    package var latencySeconds: Double
    package var percentile: Double
    package var holds: Bool
    /// Fewest hosts (same cores, at least the planned hosts) meeting the SLO at the target
    /// rate; nil when even a million times the planned hosts would not.
    package var hostsNeeded: Int?
    /// Fewest cores per host meeting the SLO with the planned hosts.
    package var coresPerHostNeeded: Int?
    /// One sentence: why it holds, or how to make it hold.
    package var advice: String
}

/// The formula beside the run's measured knee (`plan --from`).
package struct MeasuredComparison: Equatable, Sendable, Codable {
    package var run: MeasuredRun
    /// knee / formula on the run's machine: how far the measured curve bent from the formula.
    package var kneeToFormula: Double?
    /// ceil(threadsExact × kneeToFormula): the plan's thread count corrected by the measurement.
    package var kneeAdjustedThreadsPerHost: Int?
    /// Threads per host at the ends of the 95% interval of W/C.
    package var threadsPerHostLower: Int?
    package var threadsPerHostUpper: Int?
}
