/// What the estimator needs besides the samples: grouping rules and the figures only the user
/// knows.
package struct EstimatorSettings: Equatable, Sendable, Codable {
    /// Grouping overrides, tried in order.
    package var groupRules: [GroupRule]
    /// U in cores × U × (1 + W/C).
    package var targetUtilization: Double
    /// λ: tasks per second through the pool the user asks about; nil when unknown.
    package var throughputPerSecond: Double?
    /// The mean time a task spends in the pool, seconds; needs the throughput.
    package var latencySeconds: Double?
    /// The pool λ and the latency belong to; nil for the pool using the most CPU.
    package var throughputPool: String?
    /// Sub-intervals for the batch-means intervals (at most; fewer for short observations).
    package var batches: Int
    /// Where λ came from when `--counter` read it (then `throughputPerSecond` is its rate).
    package var counter: TaskCount?

    /// Settings; the defaults size for full CPU use with ten batches.
    package init(
        groupRules: [GroupRule] = [], targetUtilization: Double = 1, throughputPerSecond: Double? = nil,
        latencySeconds: Double? = nil, throughputPool: String? = nil, batches: Int = 10
    ) {
        self.groupRules = groupRules
        self.targetUtilization = targetUtilization
        self.throughputPerSecond = throughputPerSecond
        self.latencySeconds = latencySeconds
        self.throughputPool = throughputPool
        self.batches = batches
    }
}
