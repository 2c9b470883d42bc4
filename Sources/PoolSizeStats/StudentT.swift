/// Student's t distribution (Student, "The probable error of a mean", Biometrika 6(1), 1908).
///
/// Used for every interval in this target because sweeps repeat each configuration only a few
/// times; with n = 3 the 95 % critical value is 4.303, not the normal 1.960.
package enum StudentT {
    /// Two-sided critical value t_{1−α/2, df} with α = 1 − `confidence`: the half-width, in
    /// standard errors, of a `confidence` interval. E.g. 0.95 with df 1 → 12.706, df 2 → 4.303,
    /// df 10 → 2.228, df → ∞ → 1.960.
    ///
    /// Solved from `cdf` by bisection (the CDF is monotone, so this cannot fail to converge).
    /// Returns 0 for `confidence ≤ 0`, +∞ for `confidence ≥ 1`, NaN for `degreesOfFreedom < 1`
    /// or a NaN confidence.
    package static func criticalValue(confidence: Double, degreesOfFreedom: Int) -> Double {
        guard degreesOfFreedom >= 1, !confidence.isNaN else { return .nan }
        guard confidence > 0 else { return 0 }
        guard confidence < 1 else { return .infinity }
        let target = 1 - (1 - confidence) / 2
        var low = 0.0
        var high = 2.0
        while cdf(high, degreesOfFreedom: degreesOfFreedom) < target {
            low = high
            high *= 2
            if high > 1e300 { return .infinity }
        }
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if cdf(mid, degreesOfFreedom: degreesOfFreedom) < target { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// P(T ≤ t) for T ~ t(df), through the regularized incomplete beta function:
    /// P(|T| > |t|) = I_{df/(df+t²)}(df/2, 1/2) (Abramowitz & Stegun, Handbook of Mathematical
    /// Functions, §26.7).
    /// NaN for `degreesOfFreedom < 1` or NaN `t`.
    package static func cdf(_ t: Double, degreesOfFreedom: Int) -> Double {
        guard degreesOfFreedom >= 1, !t.isNaN else { return .nan }
        if t.isInfinite { return t > 0 ? 1 : 0 }
        let df = Double(degreesOfFreedom)
        let x = df / (df + t * t)
        let twoTailed = SpecialFunctions.regularizedIncompleteBeta(x, a: df / 2, b: 0.5)
        return t > 0 ? 1 - twoTailed / 2 : twoTailed / 2
    }
}
