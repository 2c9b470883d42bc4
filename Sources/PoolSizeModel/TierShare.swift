/// How one tier fared when every selected tier competed for the CPU at once.
package struct TierShare: Equatable, Sendable, Codable {
    /// The tier.
    package var qos: QoSTier
    /// Tasks per second the tier completed while all competed.
    package var throughputPerSecond: Double
    /// This tier's share of the total throughput.
    package var share: Double
    /// Nice its workers actually ran at.
    package var effectiveNice: Int

    /// A share from its figures.
    package init(qos: QoSTier, throughputPerSecond: Double, share: Double, effectiveNice: Int) {
        self.qos = qos
        self.throughputPerSecond = throughputPerSecond
        self.share = share
        self.effectiveNice = effectiveNice
    }
}
