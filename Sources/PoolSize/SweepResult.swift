import Foundation

/// What a sweep found.
public struct SweepResult: Sendable {
    /// The plan the sweep ran.
    package var plan: SweepPlan
    /// W and C with one worker: the formula's inputs.
    public var lowLoad: LowLoadEstimate
    /// One per measured trial, in the order run.
    public var records: [TrialRecord]
    /// The recommendation per combination and the best one; nil when no trial was measured.
    public var recommendation: RecommendationSet?

    /// Mean, spread and interval per (combination, size), as summary.csv holds them.
    public var summaries: [ConfigurationSummary] { ConfigurationSummary.summarize(records) }
}
