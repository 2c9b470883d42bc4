/// The names a recommendation's figures had before every size was called a queue count, kept so
/// code written against them still builds (with a warning naming the new name).
extension Recommendation {
    /// The knee; renamed `kneeQueueCount`.
    @available(*, deprecated, renamed: "kneeQueueCount")
    public var kneePoolSize: Int? { kneeQueueCount }

    /// The queue count of the highest throughput; renamed `peakQueueCount`.
    @available(*, deprecated, renamed: "peakQueueCount")
    public var peakPoolSize: Int? { peakQueueCount }
}
