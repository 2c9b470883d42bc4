/// Every thread of the target at one sampled instant, parsed.
public struct SampleSweep: Equatable, Sendable {
    /// When, in seconds on CLOCK_BOOTTIME.
    public var timeSeconds: Double
    /// The threads found, each once.
    public var readings: [ThreadReading]

    /// A sweep at `timeSeconds`.
    public init(timeSeconds: Double, readings: [ThreadReading]) {
        self.timeSeconds = timeSeconds
        self.readings = readings
    }

    /// Parses a raw sweep; threads whose texts do not parse (exited mid-read) are left out.
    public init(_ raw: RawSweep, clockTicksPerSecond: Double) {
        timeSeconds = raw.timeSeconds
        readings = raw.threads.compactMap { ThreadReading($0, clockTicksPerSecond: clockTicksPerSecond) }
    }
}
