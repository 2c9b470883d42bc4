/// The answer at one rate of an open-loop sweep over a range of rates.
package struct RateSizing: Equatable, Sendable, Codable {
    /// The offered arrival rate, tasks/s.
    package var arrivalRate: ArrivalRate
    /// The smallest measured size that met the objective (or kept up, without one); nil when none did.
    package var recommendedQueueCount: Int?
    /// The objective's percentile at that size, µs.
    package var percentileMicroseconds: Double?
    /// What M/M/c asks for at this rate.
    package var queueingModelQueueCount: Int?

    /// A row from its figures.
    package init(
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
