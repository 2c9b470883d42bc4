/// How to sample one target.
public struct SamplerPlan: Equatable, Sendable {
    /// The process.
    public var pid: Int32
    /// Whether its descendants' threads count too.
    public var includeChildren: Bool
    /// How long to sample, seconds.
    public var durationSeconds: Double
    /// How often.
    public var rate: SamplingRate
    /// The seed of the Poisson schedule.
    public var seed: UInt64
    /// Keep every raw text too, for a recording (a golden fixture).
    public var keepRawTexts: Bool

    /// A plan.
    public init(pid: Int32, includeChildren: Bool, durationSeconds: Double, rate: SamplingRate = .standard, seed: UInt64, keepRawTexts: Bool = false) {
        self.pid = pid
        self.includeChildren = includeChildren
        self.durationSeconds = durationSeconds
        self.rate = rate
        self.seed = seed
        self.keepRawTexts = keepRawTexts
    }
}
