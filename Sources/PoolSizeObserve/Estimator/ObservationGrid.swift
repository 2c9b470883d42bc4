/// The time grids an observation's figures are gathered on, as they stand at its end: the
/// timeline's slices and the batch atoms with the batches they form. Internal to the estimator.
struct ObservationGrid {
    /// The slice length, seconds.
    var sliceSeconds: Double
    /// The slices of the timeline (a last sliver joins the slice before it).
    var sliceCount: Int
    /// The batch-means batches.
    var batchCount: Int
    /// When each batch atom's last sweep was, seconds after the first sweep.
    var atomEnds: [Double]
}
