import Foundation

extension Knee {
    /// Index in `curve` (sorted by size) of the smallest size `a` past which the curve stops
    /// rising: no larger size `b` beats the best mean up to `a` by more than the allowance
    /// (1 + gain)^d, d = log₂(b / a) doublings and at least one (within one doubling the whole
    /// `gain` is allowed, so a sharp knee stays where the near-peak rule puts it), in a way the
    /// samples can tell (`rises`). The last size always qualifies.
    ///
    /// The allowance compounds from `a` itself: what a slow creep gains over many doublings
    /// (+11% over seven) is within it, wherever along the way the creep gains its few percent;
    /// a climb that outruns it from `a` (a pause, then twice the throughput at four times the
    /// size) does not, and the knee is past that climb. The best mean up to `a`, not `a`'s own,
    /// is the reference, so a dip (a noisy low sample) is not read as the start of a rise.
    static func flatteningIndex(_ curve: [CurveStep], gainPerDoubling gain: Double) -> Int {
        var best = 0
        for a in curve.indices {
            if curve[a].summary.mean > curve[best].summary.mean { best = a }
            let reference = curve[best]
            let size = curve[a].size
            if !curve[(a + 1)...].contains(where: { rises(from: reference, at: size, to: $0, gain: gain) }) {
                return a
            }
        }
        return max(0, curve.count - 1)
    }

    /// Whether `higher` beats `reference` (the best mean up to size `size`) by more than the
    /// allowance for the doublings from `size` to `higher.size`, in a way the samples can tell:
    /// by more than twice the gain per doubling outright (the spread of a few repetitions must
    /// not excuse an arbitrarily large rise, as in the near-peak rule), or else by more than the
    /// half-width of a 95% Welch interval of the difference (Welch, "The generalization of
    /// Student's problem when several different population variances are involved", Biometrika
    /// 34, 1947). Without spread at either size, the means decide.
    static func rises(from reference: CurveStep, at size: Int, to higher: CurveStep, gain: Double) -> Bool {
        let doublings = max(1, log2(Double(higher.size) / Double(size)))
        let allowance = pow(1 + gain, doublings)
        let excess = higher.summary.mean - allowance * reference.summary.mean
        guard excess > 0 else { return false }
        if higher.summary.mean > pow(1 + 2 * gain, doublings) * reference.summary.mean { return true }
        let terms = [
            (higher.summary.standardError, higher.summary.count),
            (allowance * reference.summary.standardError, reference.summary.count),
        ]
        .filter { $0.1 > 1 && $0.0 > 0 }
        let variance = terms.reduce(0) { $0 + $1.0 * $1.0 }
        guard variance > 0 else { return true }
        // Welch–Satterthwaite degrees of freedom, rounded down (a wider interval).
        let freedom = variance * variance / terms.reduce(0) { $0 + pow($1.0, 4) / Double($1.1 - 1) }
        let t = StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: max(1, Int(freedom)))
        return excess > t * variance.squareRoot()
    }
}
