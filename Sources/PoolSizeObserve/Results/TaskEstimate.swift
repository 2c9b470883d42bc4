/// Per-task figures from a pool's shares and a known task rate (Little's law, L = λW:
/// J. D. C. Little, Operations Research 9(3), 1961): busy threads = rate × time per task.
package struct TaskEstimate: Equatable, Sendable, Codable {
    /// λ, tasks per second through the pool (`--throughput`).
    package var throughputPerSecond: Double
    /// C per task: the pool's CPU seconds per second over λ.
    package var cpuSeconds: Double
    /// Q per task: run-queue seconds per second over λ.
    package var runQueueSeconds: Double
    /// W per task: known-IO seconds per second over λ, up to that plus the ambiguous seconds.
    package var waitSeconds: ValueRange
    /// N(λ) = λ(C + W): the threads busy at this rate on average.
    package var threadsNeeded: ValueRange
    /// Erlang C: the chance a task waits for a free thread with the pool's threads at this rate
    /// (M/M/c; Kleinrock, Queueing Systems vol. 1, ch. 3), for W's two bounds.
    package var waitProbability: ValueRange
    /// With `--latency` (the mean time a task spends in the pool): the W that resolves the
    /// ambiguous share, λ·D minus the known busy threads, within W's bounds.
    package var resolvedWaitSeconds: Double?
    /// With `--latency`: λ·D, the tasks inside the pool on average (Little's law). More than
    /// the pool has threads means tasks queue before it, or D counts time outside it.
    package var tasksInFlight: Double?
    /// With `--latency`: W/C with the resolved W, one figure.
    package var resolvedWaitToCPU: Double?
    /// With `--latency`: N with the resolved W/C, one figure (the parallelism the pool's size uses).
    package var resolvedSize: Double?

    /// Keys as the run directory's reader spells them once snake_cased (`resolved_wait_to_cpu` →
    /// `resolvedWaitToCpu`), so observation.json reads back (RunDirectoryJSON).
    enum CodingKeys: String, CodingKey {
        case throughputPerSecond, cpuSeconds, runQueueSeconds, waitSeconds, threadsNeeded, waitProbability
        case resolvedWaitSeconds, tasksInFlight, resolvedSize
        case resolvedWaitToCPU = "resolvedWaitToCpu"
    }

    /// Per-task figures.
    package init(
        throughputPerSecond: Double, cpuSeconds: Double, runQueueSeconds: Double, waitSeconds: ValueRange,
        threadsNeeded: ValueRange, waitProbability: ValueRange, resolvedWaitSeconds: Double?,
        tasksInFlight: Double? = nil, resolvedWaitToCPU: Double? = nil, resolvedSize: Double? = nil
    ) {
        self.throughputPerSecond = throughputPerSecond
        self.cpuSeconds = cpuSeconds
        self.runQueueSeconds = runQueueSeconds
        self.waitSeconds = waitSeconds
        self.threadsNeeded = threadsNeeded
        self.waitProbability = waitProbability
        self.resolvedWaitSeconds = resolvedWaitSeconds
        self.tasksInFlight = tasksInFlight
        self.resolvedWaitToCPU = resolvedWaitToCPU
        self.resolvedSize = resolvedSize
    }
}
