/// How one tier fared when every selected tier competed for the CPU at once.
public struct TierShare: Equatable, Sendable, Codable {
    /// The tier.
    public var qos: QoSTier
    /// Tasks per second the tier completed while all competed.
    public var throughputPerSecond: Double
    /// This tier's share of the total throughput.
    public var share: Double
    /// Nice its workers actually ran at.
    public var effectiveNice: Int

    /// A share from its figures.
    public init(qos: QoSTier, throughputPerSecond: Double, share: Double, effectiveNice: Int) {
        self.qos = qos
        self.throughputPerSecond = throughputPerSecond
        self.share = share
        self.effectiveNice = effectiveNice
    }
}
