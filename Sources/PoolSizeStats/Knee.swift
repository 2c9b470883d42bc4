/// The empirical optimum of a throughput-vs-pool-size curve: the smallest pool that does as
/// well as the best one, within a tolerance and within the measurement noise.
///
/// Past the knee extra threads buy nothing but memory, context switches and lock contention
/// (docs/platform.md "Measuring W and C"), so the recommendation is the knee, not the argmax:
/// on a plateau the argmax is decided by noise.
package struct Knee: Equatable, Sendable, Codable {
    /// Smallest size not distinguishable from the peak within the tolerance.
    package let size: Int
    /// Mean throughput at `size`.
    package let throughput: Double
    /// Size with the highest mean throughput (the smallest such size on ties).
    package let peakSize: Int
    /// Highest mean throughput.
    package let peakThroughput: Double
    /// Fraction of the peak a size may fall short by, e.g. 0.05.
    package let tolerance: Double

    /// A knee from its figures.
    package init(size: Int, throughput: Double, peakSize: Int, peakThroughput: Double, tolerance: Double) {
        self.size = size
        self.throughput = throughput
        self.peakSize = peakSize
        self.peakThroughput = peakThroughput
        self.tolerance = tolerance
    }

    /// The throughput a size had to reach: (1 − tolerance) × peak mean.
    package var threshold: Double { (1 - tolerance) * peakThroughput }

    /// Finds the knee.
    ///
    /// Point-estimate rule: the smallest size whose mean ≥ (1 − tolerance) × peak mean.
    /// With spread (a size with ≥ 2 samples) the size also qualifies when the upper end of its
    /// 95 % Student-t interval for the mean reaches that threshold — its mean is then not
    /// distinguishable from the threshold, and a smaller pool that might be as good is the better
    /// recommendation — as long as its mean is within twice the tolerance of the peak (the spread
    /// of a few repetitions must not excuse an arbitrarily large shortfall). Sizes are sorted first; repeated sizes are merged (samples concatenated);
    /// sizes without samples are ignored.
    ///
    /// nil for empty input (or no samples at all) and for a tolerance outside [0, 1) or NaN.
    package static func find(_ points: [CurvePoint], tolerance: Double = 0.05) -> Knee? {
        guard tolerance >= 0, tolerance < 1 else { return nil }
        var samplesBySize: [Int: [Double]] = [:]
        for point in points { samplesBySize[point.size, default: []] += point.samples }
        let curve =
            samplesBySize
            .filter { !$0.value.isEmpty }
            .sorted { $0.key < $1.key }
            .compactMap { size, samples in Summary(samples).map { (size: size, summary: $0) } }
        guard let first = curve.first else { return nil }

        var peak = first
        for point in curve.dropFirst() where point.summary.mean > peak.summary.mean { peak = point }
        let threshold = (1 - tolerance) * peak.summary.mean
        // The spread may excuse a shortfall of at most one more tolerance: with three noisy
        // repetitions a t-interval is wide enough to reach the threshold from far below, and a
        // size whose mean is 25% under the peak is no knee however unsure we are of it.
        let floor = (1 - 2 * tolerance) * peak.summary.mean

        let knee =
            curve.first { point in
                if point.summary.mean >= threshold { return true }
                guard point.summary.mean >= floor, let interval = point.summary.confidenceInterval95 else {
                    return false
                }
                return interval.upper >= threshold
            } ?? peak  // the peak itself always qualifies, unless NaN samples made every mean NaN
        return Knee(
            size: knee.size,
            throughput: knee.summary.mean,
            peakSize: peak.size,
            peakThroughput: peak.summary.mean,
            tolerance: tolerance
        )
    }
}
