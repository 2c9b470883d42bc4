/// Every thread of the target read at one sampled instant, as raw texts.
package struct RawSweep: Equatable, Sendable, Codable {
    /// When, in seconds on CLOCK_BOOTTIME (the clock stat's start times count on).
    package var timeSeconds: Double
    /// The threads found.
    package var threads: [RawThreadTexts]
    /// Each watched process's stat, read just before its threads; nil in a recording made
    /// before they were kept.
    package var processes: [RawProcessStat]?
}
