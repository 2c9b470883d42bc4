import PoolSizeStats

/// Why a recommendation is what it is, as structured findings: Analysis decides, Output words
/// them (`SizingProse`), so every sentence is written in one place through one formatter.
package enum SizingExplanation: Equatable, Sendable {
    /// A closed loop: the knee against the formula, the size past which the peak may lie
    /// when throughput still rose at the largest size, and which rule made the knee (near the
    /// peak, or where a curve that creeps on toward a higher peak stopped rising).
    case knee(KneeExplanation, peakMayLieBeyond: Int?, basis: Knee.Basis = .nearPeak)
    /// An open loop sized at its arrival rate.
    case arrivals(ArrivalExplanation)
}
