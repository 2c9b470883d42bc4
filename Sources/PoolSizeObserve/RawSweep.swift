/// Every thread of the target read at one sampled instant, as raw texts.
package struct RawSweep: Equatable, Sendable, Codable {
    /// When, in seconds on CLOCK_BOOTTIME (the clock stat's start times count on).
    package var timeSeconds: Double
    /// The threads found.
    package var threads: [RawThreadTexts]

    /// A sweep at `timeSeconds`.
    package init(timeSeconds: Double, threads: [RawThreadTexts]) {
        self.timeSeconds = timeSeconds
        self.threads = threads
    }
}
