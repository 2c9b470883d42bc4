/// Every thread of the target read at one sampled instant, as raw texts.
public struct RawSweep: Equatable, Sendable, Codable {
    /// When, in seconds on CLOCK_BOOTTIME (the clock stat's start times count on).
    public var timeSeconds: Double
    /// The threads found.
    public var threads: [RawThreadTexts]

    /// A sweep at `timeSeconds`.
    public init(timeSeconds: Double, threads: [RawThreadTexts]) {
        self.timeSeconds = timeSeconds
        self.threads = threads
    }
}
