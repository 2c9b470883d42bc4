/// The throughput samples (one per repetition, tasks/s) measured at one pool size.
public struct CurvePoint: Equatable, Sendable, Codable {
    /// Pool size.
    public let size: Int
    /// Throughput of each repetition.
    public let samples: [Double]

    /// A point from its samples.
    public init(size: Int, samples: [Double]) {
        self.size = size
        self.samples = samples
    }
}
