/// A stretch of a workload whose task times differ from the spec's: from `startMilliseconds`
/// into a trial until the next phase, tasks burn `cpuMicroseconds` and wait `waitMicroseconds`
/// (the spec's jitter still applies). A spec's `phases:` replay a workload that changes while a
/// pool runs: a backend slowing down threefold, then recovering (docs/guide/adaptive-pool.md).
package struct WorkloadPhase: Equatable, Sendable, Codable {
    /// When the phase begins, from the start of the trial.
    package var startMilliseconds: Int
    /// CPU time per task in the phase, before jitter.
    package var cpuMicroseconds: Double
    /// Wait per task in the phase, before jitter.
    package var waitMicroseconds: Double

    /// A phase from `startMilliseconds` on.
    package init(startMilliseconds: Int, cpuMicroseconds: Double, waitMicroseconds: Double) {
        self.startMilliseconds = startMilliseconds
        self.cpuMicroseconds = cpuMicroseconds
        self.waitMicroseconds = waitMicroseconds
    }
}

extension WorkloadSpec {
    /// The mean C and W of a task started `milliseconds` into a trial: the last phase begun by
    /// then, or the spec's own before the first.
    package func means(atMilliseconds milliseconds: Double) -> (cpuMicroseconds: Double, waitMicroseconds: Double) {
        guard let phase = phases.last(where: { Double($0.startMilliseconds) <= milliseconds }) else {
            return (cpuMicroseconds, waitMicroseconds)
        }
        return (phase.cpuMicroseconds, phase.waitMicroseconds)
    }
}
