/// A two-sided confidence interval `[lower, upper]` at confidence `level` (0.95 for 95 %).
///
/// Intervals here come from Student's t distribution (see `StudentT`) because repetition counts
/// in a sweep are small (3–10): the normal 1.96 would understate the spread by up to a factor
/// of 6.5 at two repetitions.
public struct ConfidenceInterval: Equatable, Sendable, Codable {
    /// Lower bound.
    public let lower: Double
    /// Upper bound.
    public let upper: Double
    /// Confidence level as a fraction, e.g. 0.95.
    public let level: Double

    /// An interval at confidence `level`.
    public init(lower: Double, upper: Double, level: Double) {
        self.lower = lower
        self.upper = upper
        self.level = level
    }

    /// Half the width: the "±" of `center ± halfWidth`.
    public var halfWidth: Double { (upper - lower) / 2 }

    /// Midpoint of the interval (the estimate for symmetric intervals).
    public var center: Double { (lower + upper) / 2 }

    /// Whether `value` lies inside the closed interval.
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }
}
