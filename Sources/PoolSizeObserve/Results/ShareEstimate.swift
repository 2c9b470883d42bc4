import PoolSizeStats

/// One share of a pool's thread time with its 95% interval.
package struct ShareEstimate: Equatable, Sendable, Codable {
    /// Which share.
    package var kind: ShareKind
    /// The fraction of the pool's thread time, from the whole observation.
    package var fraction: Double
    /// The 95% interval: the fraction ± the Student-t half-width of the batch means (the
    /// observation cut into equal sub-intervals, each estimated alone), clipped to [0, 1];
    /// nil with fewer than two batches.
    package var interval95: ConfidenceInterval?
}
