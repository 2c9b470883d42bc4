/// The ratio of two means, R = ȳ / x̄, from paired observations (here W and C of each task),
/// with its standard error by the delta method (Cochran, *Sampling Techniques*, 3rd ed., §6.4):
///
///     Var(R) ≈ (s_y² − 2R·s_xy + R²·s_x²) / (n · x̄²)
///
/// Σ W / Σ C is the right W/C for the formula (a mean of per-task ratios over-weights tasks
/// with little CPU), and this is its uncertainty.
package struct RatioOfMeans: Equatable, Sendable, Codable {
    /// Pairs measured.
    package let count: Int
    /// Σ numerators / Σ denominators.
    package let ratio: Double
    /// Delta-method standard error of the ratio.
    package let standardError: Double
    /// Student t 95% interval; nil with fewer than two pairs.
    package let confidenceInterval95: ConfidenceInterval?

    /// nil when empty, when lengths differ, or when the denominator's mean is zero.
    package init?(numerators y: [Double], denominators x: [Double]) {
        let n = y.count
        guard n > 0, x.count == n else { return nil }
        let meanX = x.reduce(0, +) / Double(n)
        let meanY = y.reduce(0, +) / Double(n)
        guard meanX != 0 else { return nil }
        let r = meanY / meanX
        count = n
        ratio = r
        guard n > 1 else {
            standardError = 0
            confidenceInterval95 = nil
            return
        }
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for i in 0..<n {
            let dx = x[i] - meanX, dy = y[i] - meanY
            sxx += dx * dx
            syy += dy * dy
            sxy += dx * dy
        }
        let d = Double(n - 1)
        let variance = max(0, (syy / d - 2 * r * sxy / d + r * r * sxx / d) / (Double(n) * meanX * meanX))
        standardError = variance.squareRoot()
        let t = StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: n - 1)
        confidenceInterval95 = ConfidenceInterval(
            lower: r - t * standardError, upper: r + t * standardError, level: 0.95)
    }

    /// Standard error relative to the ratio (∞ when the ratio is 0 and the error is not).
    package var relativeStandardError: Double {
        ratio == 0 ? (standardError == 0 ? 0 : .infinity) : standardError / abs(ratio)
    }
}
