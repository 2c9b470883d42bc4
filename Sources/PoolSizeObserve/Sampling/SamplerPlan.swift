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
    /// Keep every raw text too, for a recording (a golden fixture); unlike the samples, these
    /// grow with the observation.
    package var keepRawTexts: Bool
    /// The grouping rules, which the samples are gathered by as they arrive.
    package var groupRules: [GroupRule]

    /// A plan.
    package init(
        pid: Int32, includeChildren: Bool, durationSeconds: Double, rate: SamplingRate = .standard, seed: UInt64,
        keepRawTexts: Bool = false, groupRules: [GroupRule] = []
    ) {
        self.pid = pid
        self.includeChildren = includeChildren
        self.durationSeconds = durationSeconds
        self.rate = rate
        self.seed = seed
        self.keepRawTexts = keepRawTexts
        self.groupRules = groupRules
    }
}
