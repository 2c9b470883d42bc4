/// The empirical optimum of a throughput-vs-pool-size curve: the smallest pool past which
/// more threads buy nothing the measurements can tell.
///
/// Past the knee extra threads buy nothing but memory, context switches and lock contention
/// (docs/platform.md "Measuring W and C"), so the recommendation is the knee, not the argmax:
/// on a plateau the argmax is decided by noise, and on a plateau that creeps upward (a server
/// that answers a few percent faster with every doubling of the clients) "within the tolerance
/// of the peak" moves out with the creep to wherever it last crossed that line.
package struct Knee: Equatable, Sendable, Codable {
    /// Which rule made `size` the knee.
    package enum Basis: String, Equatable, Sendable, Codable, CaseIterable {
        /// Its mean is within the tolerance of the peak (or its interval reaches that threshold).
        case nearPeak = "near-peak"
        /// It is further below the peak than the tolerance, but past it no doubling of the size
        /// raises throughput by the tolerance more than the repetitions' spread explains: the
        /// peak lies at the end of a slow creep.
        case flattened
    }

    /// Smallest size not distinguishable from the peak within the tolerance, or past which the
    /// curve stops rising (`basis` says which).
    package let size: Int
    /// Mean throughput at `size`.
    package let throughput: Double
    /// Size with the highest mean throughput (the smallest such size on ties).
    package let peakSize: Int
    /// Highest mean throughput.
    package let peakThroughput: Double
    /// Fraction of the peak a size may fall short by, e.g. 0.05.
    package let tolerance: Double
    /// Why `size` is the knee.
    package let basis: Basis

    /// A knee from its figures.
    package init(
        size: Int, throughput: Double, peakSize: Int, peakThroughput: Double, tolerance: Double,
        basis: Basis = .nearPeak
    ) {
        self.size = size
        self.throughput = throughput
        self.peakSize = peakSize
        self.peakThroughput = peakThroughput
        self.tolerance = tolerance
        self.basis = basis
    }

    /// The throughput a size had to reach: (1 − tolerance) × peak mean.
    package var threshold: Double { (1 - tolerance) * peakThroughput }

    /// Finds the knee: the smaller of two sizes.
    ///
    /// **Near the peak** (point-estimate rule): the smallest size whose mean ≥ (1 − tolerance) ×
    /// peak mean. With spread (a size with ≥ 2 samples) the size also qualifies when the upper
    /// end of its 95 % Student-t interval for the mean reaches that threshold — its mean is then
    /// not distinguishable from the threshold, and a smaller pool that might be as good is the
    /// better recommendation — as long as its mean is within twice the tolerance of the peak
    /// (the spread of a few repetitions must not excuse an arbitrarily large shortfall).
    ///
    /// **Flattened** (`flatteningSize`): the smallest size past which the curve no longer rises
    /// by `gainPerDoubling` per doubling of the size in a way the repetitions can tell. It is
    /// what makes a slow creep (+11% over 128× the threads) end at its start, not where it last
    /// crossed the tolerance below its far end.
    ///
    /// Sizes are sorted first; repeated sizes are merged (samples concatenated); sizes without
    /// samples are ignored. `gainPerDoubling` defaults to `tolerance` (a `Recommender` aiming
    /// below full utilization widens the tolerance, not what a doubling has to buy).
    ///
    /// nil for empty input (or no samples at all) and for a tolerance outside [0, 1) or NaN.
    package static func find(_ points: [CurvePoint], tolerance: Double = 0.05, gainPerDoubling: Double? = nil)
        -> Knee?
    {
        guard tolerance >= 0, tolerance < 1 else { return nil }
        let gain = gainPerDoubling ?? tolerance
        guard gain >= 0, gain.isFinite else { return nil }
        var samplesBySize: [Int: [Double]] = [:]
        for point in points { samplesBySize[point.size, default: []] += point.samples }
        let curve =
            samplesBySize
            .filter { !$0.value.isEmpty }
            .sorted { $0.key < $1.key }
            .compactMap { size, samples in Summary(samples).map { CurveStep(size: size, summary: $0) } }
        guard let first = curve.first else { return nil }

        var peak = first
        for point in curve.dropFirst() where point.summary.mean > peak.summary.mean { peak = point }
        let threshold = (1 - tolerance) * peak.summary.mean
        // The spread may excuse a shortfall of at most one more tolerance: with three noisy
        // repetitions a t-interval is wide enough to reach the threshold from far below, and a
        // size whose mean is 25% under the peak is no knee however unsure we are of it.
        let floor = (1 - 2 * tolerance) * peak.summary.mean

        let nearPeak =
            curve.firstIndex { point in
                if point.summary.mean >= threshold { return true }
                guard point.summary.mean >= floor, let interval = point.summary.confidenceInterval95 else {
                    return false
                }
                return interval.upper >= threshold
            } ?? curve.firstIndex { $0.size == peak.size }!  // the peak always qualifies, unless every mean is NaN
        let flattened = flatteningIndex(curve, gainPerDoubling: gain)
        let index = min(nearPeak, flattened)
        let knee = curve[index]
        return Knee(
            size: knee.size,
            throughput: knee.summary.mean,
            peakSize: peak.size,
            peakThroughput: peak.summary.mean,
            tolerance: tolerance,
            basis: index == nearPeak ? .nearPeak : .flattened
        )
    }
}

/// One size of a curve with its samples summarised.
struct CurveStep {
    let size: Int
    let summary: Summary
}
