/// An observation parsed and ready for the estimator: the header and the sweeps' readings.
package struct ObservationRecord: Equatable, Sendable {
    /// The target, clock, cores and cost.
    package var header: ObservationHeader
    /// The sweeps, oldest first.
    package var sweeps: [SampleSweep]
    /// The processes watched (the target, and its descendants with `--children`); empty for a
    /// recording made before they were kept.
    package var processes: [ProcessFacts]

    /// A record.
    package init(header: ObservationHeader, sweeps: [SampleSweep], processes: [ProcessFacts] = []) {
        self.header = header
        self.sweeps = sweeps
        self.processes = processes
    }

    /// Seconds from the first sweep to the last.
    package var durationSeconds: Double {
        guard let first = sweeps.first, let last = sweeps.last else { return 0 }
        return last.timeSeconds - first.timeSeconds
    }
}
