/// How to sample one target.
package struct SamplerPlan: Equatable, Sendable {
    /// The process.
    package var pid: Int32
    /// Whether its descendants' threads count too.
    package var includeChildren: Bool
    /// How long to sample, seconds.
    package var durationSeconds: Double
    /// How often.
    package var rate: SamplingRate
    /// The seed of the Poisson schedule.
    package var seed: UInt64
    /// Keep every raw text too, for a recording (a golden fixture).
    package var keepRawTexts: Bool

    /// A plan.
    package init(
        pid: Int32, includeChildren: Bool, durationSeconds: Double, rate: SamplingRate = .standard, seed: UInt64,
        keepRawTexts: Bool = false
    ) {
        self.pid = pid
        self.includeChildren = includeChildren
        self.durationSeconds = durationSeconds
        self.rate = rate
        self.seed = seed
        self.keepRawTexts = keepRawTexts
    }
}
