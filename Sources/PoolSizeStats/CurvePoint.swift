/// The throughput samples (one per repetition, tasks/s) measured at one pool size.
public struct CurvePoint: Equatable, Sendable, Codable {
    public let size: Int
    public let samples: [Double]

    public init(size: Int, samples: [Double]) {
        self.size = size
        self.samples = samples
    }
}
