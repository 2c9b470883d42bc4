/// The throughput samples (one per repetition, tasks/s) measured at one pool size.
package struct CurvePoint: Equatable, Sendable, Codable {
    /// Pool size.
    package let size: Int
    /// Throughput of each repetition.
    package let samples: [Double]

    /// A point from its samples.
    package init(size: Int, samples: [Double]) {
        self.size = size
        self.samples = samples
    }
}
