/// One stretch of a pool's observation — a second, or longer when the observation runs past an
/// hour (`ObservationEstimator.maximumSlices`) — and where the pool's thread time went in it:
/// a row of the per-pool CSV and a point of the chart of shares over time.
///
/// The time between two sweeps is split between the slices it overlaps, in proportion; the
/// sample that classifies it is counted in the slice of the later sweep. A slice's shares
/// therefore rest on few samples (the sweeps that fell in it): they show how the load moved,
/// while the whole observation's shares carry the intervals.
package struct PoolSlice: Equatable, Sendable, Codable {
    /// Where the slice starts, seconds after the first sweep.
    package var startSeconds: Double
    /// Where it ends.
    package var endSeconds: Double
    /// Thread-seconds in the slice over its length: the mean number of threads alive.
    package var meanThreads: Double
    /// CPU seconds per second in the slice: cores used.
    package var cpuCores: Double
    /// Thread samples taken in the slice.
    package var samples: Int
    /// The five shares; nil when no thread time of the pool fell in the slice.
    package var shares: ShareFractions?
}
