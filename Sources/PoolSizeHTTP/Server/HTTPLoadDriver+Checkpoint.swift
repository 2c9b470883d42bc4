extension HTTPLoadDriver {
    /// The window of a run so far, as `run`'s checkpoint sees it.
    package struct Checkpoint: Equatable, Sendable {
        /// Time since the window opened.
        package var nanoseconds: UInt64
        /// Successes so far.
        package var requests: Int
        /// Failures so far.
        package var failures: Int
        /// The successes' latencies added up.
        package var latencySumNanoseconds: UInt64
    }
}
