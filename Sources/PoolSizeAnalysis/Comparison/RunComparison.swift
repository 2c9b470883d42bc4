import PoolSizeModel
/// The outcome of `poolsize compare BASE CURRENT`: per matched configuration, throughput and p99
/// latency side by side with a verdict. Encoded by `JSONExport` (snake_case keys).
package struct RunComparison: Equatable, Sendable, Codable {
    package var baseRunID: String
    package var currentRunID: String
    package var workload: String
    package var cores: Int?
    /// Relative change a metric must exceed to count (0.05 for 5%).
    package var threshold: Double
    /// Significance level of the test (p < alpha, or non-overlapping 1 − alpha intervals).
    package var alpha: Double
    /// Both runs' recommendation, knee and peak per combination: the sizing answer, first.
    package var sizing: [SizingComparison] = []
    /// Combinations whose recommendation changed beyond the threshold and a grid step.
    package var recommendationChanges: Int = 0
    package var configurations: [ConfigurationComparison]
    package var onlyInBase: [RunConfiguration]
    package var onlyInCurrent: [RunConfiguration]
    /// Configurations with at least one regressed metric.
    package var regressions: Int
    /// `regression` when any configuration regressed, else `improvement` or `unchanged`.
    package var verdict: ComparisonVerdict
    /// One line: what regressed, or that nothing did.
    package var summary: String
    /// Caveats the reader needs: partial overlap, metrics too thin to test.
    package var notes: [String]
    /// Two open-loop runs: the objective per size and rate in both, and the recommendation per
    /// rate (`configurations` and `sizing` are then empty). nil for closed loops.
    package var openLoop: OpenLoopComparison? = nil
}

/// One configuration in both runs.
package struct ConfigurationComparison: Equatable, Sendable, Codable {
    package var configuration: RunConfiguration
    package var throughput: MetricComparison?
    /// nil when either run recorded no latency.
    package var latencyP99: MetricComparison?
    /// The worse of the two metrics' verdicts.
    package var verdict: ComparisonVerdict
    /// False past the knee (and not at the recommendation): shown, never a regression, since
    /// throughput on the plateau moves with noise and no sizing decision rests on it.
    package var judged: Bool = true
}

/// One metric of one configuration across the two runs' repetitions.
package struct MetricComparison: Equatable, Sendable, Codable {
    package var baseMedian: Double
    package var currentMedian: Double
    package var baseRepetitions: Int
    package var currentRepetitions: Int
    /// (current − base) / base, on the medians (robust to one stalled repetition).
    package var relativeChange: Double
    package var test: SignificanceTest
    /// Mann–Whitney's two-sided p; nil for the interval test.
    package var pValue: Double?
    package var significant: Bool
    package var verdict: ComparisonVerdict
}

/// Which test decided whether a change is more than noise.
package enum SignificanceTest: String, CaseIterable, Equatable, Sendable, Codable {
    /// Mann–Whitney U, used when the repetitions allow p < alpha (4 + 4, 3 + 5, …).
    case mannWhitney = "mann-whitney"
    /// Non-overlapping Student-t intervals of the means at 1 − alpha, for fewer repetitions.
    case confidenceIntervals = "confidence-intervals"
    /// A run has a single repetition: nothing can tell change from noise.
    case none
    /// The current run has no positive, finite throughput where the base had some: a run that
    /// collapsed (zero, negative, NaN or missing figures) needs no test to be a regression.
    case collapsed
}

/// What a change amounts to, worst first.
package enum ComparisonVerdict: String, CaseIterable, Equatable, Sendable, Codable, Comparable {
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

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
