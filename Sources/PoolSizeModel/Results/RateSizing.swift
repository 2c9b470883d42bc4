/// The answer at one rate of an open-loop sweep over a range of rates.
public struct RateSizing: Equatable, Sendable, Codable {
    /// The offered arrival rate, tasks/s.
    public var arrivalRate: ArrivalRate
    /// The smallest measured size that met the objective (or kept up, without one); nil when none did.
    public var recommendedQueueCount: Int?
    /// The objective's percentile at that size, µs.
    public var percentileMicroseconds: Double?
    /// What M/M/c asks for at this rate.
    public var queueingModelQueueCount: Int?

    /// A row from its figures.
    public init(
        arrivalRate: ArrivalRate, recommendedQueueCount: Int?, percentileMicroseconds: Double?,
        queueingModelQueueCount: Int?
    ) {
        self.arrivalRate = arrivalRate
        self.recommendedQueueCount = recommendedQueueCount
        self.percentileMicroseconds = percentileMicroseconds
        self.queueingModelQueueCount = queueingModelQueueCount
    }

    enum CodingKeys: String, CodingKey {
        case recommendedQueueCount, queueingModelQueueCount
        case arrivalRate = "arrivalRatePerS"
        case percentileMicroseconds = "percentileUs"
    }
}
