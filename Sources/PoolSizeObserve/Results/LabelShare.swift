/// A blocking call or socket peer and the share of a pool's blocked samples found in it.
package struct LabelShare: Equatable, Sendable, Codable {
    /// `read pipe`, `epoll_wait`, `futex`; or `tcp 127.0.0.1:8080`.
    package var label: String
    /// Samples with this label.
    package var samples: Int
    /// Of the pool's off-CPU samples.
    package var fraction: Double

    /// A label's count.
    package init(label: String, samples: Int, fraction: Double) {
        self.label = label
        self.samples = samples
        self.fraction = fraction
    }
}
