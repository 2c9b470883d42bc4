/// One size at one arrival rate in an open-loop sweep, over its trials.
public struct SLOVerdict: Equatable, Sendable, Codable {
    /// Queues (threads) in the pool.
    public var poolSize: Int
    /// The offered arrival rate, tasks/s.
    public var arrivalRate: ArrivalRate
    /// Trials measured (valid ones).
    public var trials: Int
    /// Every trial kept up: carried ≥ 99% of the arrivals, backlog not growing.
    public var stable: Bool
    /// Mean tasks carried per second.
    public var achievedPerSecond: Double
    /// Mean arrivals per second in the windows.
    public var offeredPerSecond: Double
    /// Mean backlog (arrived, not finished).
    public var backlogMean: Double
    /// Median p50 latency of the trials, µs, from intended arrival.
    public var p50Microseconds: Double
    /// The objective's percentile, the worst trial's, µs (the p99 without an objective).
    public var percentileMicroseconds: Double
    /// Whether the size is stable and its percentile within the objective; nil without one.
    public var meetsSLO: Bool?
    /// That percentile as M/M/c predicts it for this size and rate, µs; nil where M/M/c is unstable.
    public var modelPercentileMicroseconds: Double?

    /// A verdict from its figures.
    public init(
        poolSize: Int, arrivalRate: ArrivalRate, trials: Int, stable: Bool, achievedPerSecond: Double,
        offeredPerSecond: Double, backlogMean: Double, p50Microseconds: Double, percentileMicroseconds: Double,
        meetsSLO: Bool?, modelPercentileMicroseconds: Double?
    ) {
        self.poolSize = poolSize
        self.arrivalRate = arrivalRate
        self.trials = trials
        self.stable = stable
        self.achievedPerSecond = achievedPerSecond
        self.offeredPerSecond = offeredPerSecond
        self.backlogMean = backlogMean
        self.p50Microseconds = p50Microseconds
        self.percentileMicroseconds = percentileMicroseconds
        self.meetsSLO = meetsSLO
        self.modelPercentileMicroseconds = modelPercentileMicroseconds
    }

    enum CodingKeys: String, CodingKey {
        case poolSize, trials, stable, backlogMean, meetsSLO = "meetsSlo"
        case arrivalRate = "arrivalRatePerS"
        case achievedPerSecond = "achievedPerS"
        case offeredPerSecond = "offeredPerS"
        case p50Microseconds = "p50Us"
        case percentileMicroseconds = "percentileUs"
        case modelPercentileMicroseconds = "modelPercentileUs"
    }
}
