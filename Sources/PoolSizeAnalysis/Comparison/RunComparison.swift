import PoolSizeModel
/// The outcome of `poolsize compare BASE CURRENT`: per matched configuration, throughput and p99
/// latency side by side with a verdict. Encoded by `JSONExport` (snake_case keys).
public struct RunComparison: Equatable, Sendable, Codable {
    public var baseRunID: String
    public var currentRunID: String
    public var workload: String
    public var cores: Int?
    /// Relative change a metric must exceed to count (0.05 for 5%).
    public var threshold: Double
    /// Significance level of the test (p < alpha, or non-overlapping 1 − alpha intervals).
    public var alpha: Double
    public var configurations: [ConfigurationComparison]
    public var onlyInBase: [RunConfiguration]
    public var onlyInCurrent: [RunConfiguration]
    /// Configurations with at least one regressed metric.
    public var regressions: Int
    /// `regression` when any configuration regressed, else `improvement` or `unchanged`.
    public var verdict: ComparisonVerdict
    /// One line: what regressed, or that nothing did.
    public var summary: String
    /// Caveats the reader needs: partial overlap, metrics too thin to test.
    public var notes: [String]
}

/// One configuration in both runs.
public struct ConfigurationComparison: Equatable, Sendable, Codable {
    public var configuration: RunConfiguration
    public var throughput: MetricComparison?
    /// nil when either run recorded no latency.
    public var latencyP99: MetricComparison?
    /// The worse of the two metrics' verdicts.
    public var verdict: ComparisonVerdict
}

/// One metric of one configuration across the two runs' repetitions.
public struct MetricComparison: Equatable, Sendable, Codable {
    public var baseMedian: Double
    public var currentMedian: Double
    public var baseRepetitions: Int
    public var currentRepetitions: Int
    /// (current − base) / base, on the medians (robust to one stalled repetition).
    public var relativeChange: Double
    public var test: SignificanceTest
    /// Mann–Whitney's two-sided p; nil for the interval test.
    public var pValue: Double?
    public var significant: Bool
    public var verdict: ComparisonVerdict
}

/// Which test decided whether a change is more than noise.
public enum SignificanceTest: String, CaseIterable, Equatable, Sendable, Codable {
    /// Mann–Whitney U, used when the repetitions allow p < alpha (4 + 4, 3 + 5, …).
    case mannWhitney = "mann-whitney"
    /// Non-overlapping Student-t intervals of the means at 1 − alpha, for fewer repetitions.
    case confidenceIntervals = "confidence-intervals"
    /// A run has a single repetition: nothing can tell change from noise.
    case none
}

/// What a change amounts to, worst first.
public enum ComparisonVerdict: String, CaseIterable, Equatable, Sendable, Codable, Comparable {
    /// Worse by more than the threshold, and significant.
    case regression
    /// Beyond the threshold but a single repetition cannot be tested.
    case untested
    /// Beyond the threshold but within the noise of the repetitions.
    case inconclusive
    /// Better by more than the threshold, and significant.
    case improvement
    /// Within the threshold.
    case unchanged

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
