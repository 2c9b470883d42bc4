/// Descriptive statistics of one sample — typically the repetitions of one trial configuration.
///
/// The spread is the *sample* standard deviation (divisor n − 1, Bessel's correction) because
/// repetitions are a sample of what the machine would do, not the whole population. The 95 %
/// interval for the mean uses Student's t with n − 1 degrees of freedom (Student, "The probable
/// error of a mean", Biometrika 6(1), 1908), which is what small repetition counts need.
///
/// Nothing is filtered: NaN or infinite inputs propagate into the result (caller's problem —
/// drop failed trials before summarising). `coefficientOfVariation` is NaN when the mean is 0
/// and the spread is not; `JSONEncoder` then needs a `nonConformingFloatEncodingStrategy`.
public struct Summary: Equatable, Sendable, Codable {
    /// Number of values.
    public let count: Int
    /// Arithmetic mean.
    public let mean: Double
    /// Median.
    public let median: Double
    /// Sample standard deviation (n − 1); 0 when `count == 1`.
    public let standardDeviation: Double
    /// Smallest value.
    public let minimum: Double
    /// Largest value.
    public let maximum: Double
    /// `standardDeviation / |mean|`; 0 when the SD is 0; NaN when the mean is 0 and the SD is not.
    public let coefficientOfVariation: Double
    /// Two-sided 95 % Student-t interval for the mean; nil when `count < 2`.
    public let confidenceInterval95: ConfidenceInterval?

    /// Summarises `values`; nil for an empty sample.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let n = Double(values.count)
        // Two passes (mean, then squared deviations): exact for zero spread and far less prone
        // to cancellation than Σx² − n·x̄² when the mean is large relative to the spread.
        let mean = values.reduce(0, +) / n
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let sd = values.count > 1 ? (squares / (n - 1)).squareRoot() : 0

        count = values.count
        self.mean = mean
        median = PoolSizeStats.median(sorted: sorted)
        standardDeviation = sd
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        if sd == 0 {
            coefficientOfVariation = 0
        } else {
            coefficientOfVariation = mean == 0 ? .nan : sd / abs(mean)
        }
        if values.count >= 2 {
            let t = StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: values.count - 1)
            let half = t * sd / n.squareRoot()
            confidenceInterval95 = ConfidenceInterval(lower: mean - half, upper: mean + half, level: 0.95)
        } else {
            confidenceInterval95 = nil
        }
    }

    /// Standard error of the mean, `SD / √n` (0 for a single value).
    public var standardError: Double { standardDeviation / Double(count).squareRoot() }

    /// A two-sided Student-t interval for the mean at any `level` in (0, 1); nil when `count < 2`.
    public func confidenceInterval(level: Double) -> ConfidenceInterval? {
        guard count >= 2 else { return nil }
        let half = StudentT.criticalValue(confidence: level, degreesOfFreedom: count - 1) * standardError
        return ConfidenceInterval(lower: mean - half, upper: mean + half, level: level)
    }
}
