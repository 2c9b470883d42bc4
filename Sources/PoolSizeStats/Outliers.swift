/// Outlier detection by the median absolute deviation (MAD).
///
/// A sweep's repetitions get hit by one-off stalls (page faults, a cron job, CPU migration);
/// mean and SD are themselves dragged by such a point, so the screen uses medians instead:
/// Iglewicz & Hoaglin's modified z-score M_i = 0.6745·(x_i − median)/MAD, flagging |M_i| > 3.5
/// (B. Iglewicz and D. C. Hoaglin, "How to Detect and Handle Outliers", ASQC Quality Press,
/// 1993, ch. 3). 0.6745 is Φ⁻¹(0.75), which makes 0.6745/MAD consistent with 1/σ for normal data.
///
/// Flagged points are reported, never silently dropped: whether to exclude them is the
/// caller's (and the report's) decision.
package enum Outliers {
    /// Φ⁻¹(0.75): the MAD of a standard normal distribution.
    static let normalMADConstant = 0.6745

    /// Indices (ascending) of the values whose modified z-score exceeds `threshold` in absolute
    /// value. Empty for fewer than 3 values (no meaningful "typical" value to deviate from) and
    /// when the MAD is 0 (more than half the values equal: every other value would score ∞).
    package static func madIndices(_ values: [Double], threshold: Double = 3.5) -> [Int] {
        guard values.count >= 3, let mad = medianAbsoluteDeviation(values), mad > 0 else { return [] }
        let center = median(sorted: values.sorted())
        return values.indices.filter { index in
            abs(normalMADConstant * (values[index] - center) / mad) > threshold
        }
    }

    /// The raw (unscaled) MAD, median(|x_i − median(x)|); multiply by 1.4826 for an estimate of
    /// σ under normality. nil for an empty sample.
    package static func medianAbsoluteDeviation(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let center = median(sorted: values.sorted())
        return median(sorted: values.map { abs($0 - center) }.sorted())
    }

    /// The modified z-scores themselves, one per value, for reports that show how far a point
    /// lies; nil for an empty sample or a zero MAD.
    package static func modifiedZScores(_ values: [Double]) -> [Double]? {
        guard let mad = medianAbsoluteDeviation(values), mad > 0 else { return nil }
        let center = median(sorted: values.sorted())
        return values.map { normalMADConstant * ($0 - center) / mad }
    }
}
