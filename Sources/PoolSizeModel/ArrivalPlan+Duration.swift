extension ArrivalPlan {
    /// A plan whose latency objective is a duration (`.milliseconds(50)`), measured from each
    /// task's intended arrival; nil sizes for stability alone.
    public init(
        rates: [ArrivalRate], process: ArrivalProcess = .poisson, latencyObjective: Duration?,
        sloPercentile: Double = 99
    ) {
        self.init(
            rates: rates, process: process, latencySLOMicroseconds: latencyObjective.map(Self.microseconds),
            sloPercentile: sloPercentile)
    }

    /// The latency objective as a duration; `latencySLOMicroseconds` holds it as recorded.
    public var latencyObjective: Duration? {
        get { latencySLOMicroseconds.map { .nanoseconds(Int64(($0 * 1_000).rounded())) } }
        set { latencySLOMicroseconds = newValue.map(Self.microseconds) }
    }

    /// A duration in microseconds, the unit the plan records.
    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
