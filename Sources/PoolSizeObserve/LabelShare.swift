/// A blocking call or socket peer and the share of a pool's blocked samples found in it.
public struct LabelShare: Equatable, Sendable, Codable {
    /// `read pipe`, `epoll_wait`, `futex`; or `tcp 127.0.0.1:8080`.
    public var label: String
    /// Samples with this label.
    public var samples: Int
    /// Of the pool's off-CPU samples.
    public var fraction: Double

    /// A label's count.
    public init(label: String, samples: Int, fraction: Double) {
        self.label = label
        self.samples = samples
        self.fraction = fraction
    }
}
