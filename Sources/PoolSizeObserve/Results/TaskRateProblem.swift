/// Why the settings about the task rate (its pool, the latency) do not fit the observation:
/// found once the pools are known, after the estimate. The command refuses them then, after the
/// figures, instead of leaving them out without a word.
package enum TaskRateProblem: Equatable, Sendable {
    /// `throughputPool` names none of the pools found (listed the most CPU first).
    case noSuchPool(name: String, pools: [String])
    /// λ·D, the tasks in the pool on average, is more than `mostInFlightPerThread` times its
    /// threads: the latency cannot be the time a task spends inside the pool.
    case implausibleLatency(pool: String, inFlight: Double, threads: Int, throughputPerSecond: Double)

    /// λ·D above this many tasks per thread is refused. The queueing verdict starts at 1.25
    /// (`PoolVerdict.queueingRatio`); a hundred tasks waiting for each thread means D was measured
    /// outside the pool (at a client, across a backlog), or is in the wrong unit.
    package static let mostInFlightPerThread = 100.0

    /// The first problem of `observation`'s task-rate settings; nil when they fit.
    package static func find(in observation: Observation) -> TaskRateProblem? {
        if let name = observation.settings.throughputPool, !observation.pools.contains(where: { $0.name == name }) {
            return .noSuchPool(name: name, pools: observation.pools.map(\.name))
        }
        for pool in observation.pools {
            guard let task = pool.perTask, let inFlight = task.tasksInFlight else { continue }
            let threads = max(1, pool.threads)
            if inFlight > mostInFlightPerThread * Double(threads) {
                return .implausibleLatency(
                    pool: pool.name, inFlight: inFlight, threads: threads,
                    throughputPerSecond: task.throughputPerSecond)
            }
        }
        return nil
    }
}
