/// One decision of a pool that sizes itself (`AdaptiveQueuePool`): from `seconds` after the pool
/// started, it ran `size` queues; the window that ended there carried `throughputPerSecond`. A
/// trial of `--pool adaptive` records the series, so the report can chart size and throughput
/// over time.
package struct SizeStep: Equatable, Sendable, Codable {
    /// Seconds since the pool started.
    package var seconds: Double
    /// Queues from then on.
    package var size: Int
    /// Tasks per second in the window that ended then.
    package var throughputPerSecond: Double

    /// A step as measured.
    package init(seconds: Double, size: Int, throughputPerSecond: Double) {
        self.seconds = seconds
        self.size = size
        self.throughputPerSecond = throughputPerSecond
    }
}
