/// An observation parsed and ready for the estimator: the header and the sweeps' readings.
public struct ObservationRecord: Equatable, Sendable {
    /// The target, clock, cores and cost.
    public var header: ObservationHeader
    /// The sweeps, oldest first.
    public var sweeps: [SampleSweep]

    /// A record.
    public init(header: ObservationHeader, sweeps: [SampleSweep]) {
        self.header = header
        self.sweeps = sweeps
    }

    /// Seconds from the first sweep to the last.
    public var durationSeconds: Double {
        guard let first = sweeps.first, let last = sweeps.last else { return 0 }
        return last.timeSeconds - first.timeSeconds
    }
}
