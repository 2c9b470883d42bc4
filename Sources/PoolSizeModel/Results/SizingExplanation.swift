/// Why a recommendation is what it is, as structured findings: Analysis decides, Output words
/// them (`SizingProse`), so every sentence is written in one place through one formatter.
package enum SizingExplanation: Equatable, Sendable {
    /// A closed loop: the knee against the formula, and the size past which the peak may lie
    /// when throughput still rose at the largest size.
    case knee(KneeExplanation, peakMayLieBeyond: Int?)
    /// An open loop sized at its arrival rate.
    case arrivals(ArrivalExplanation)
}
