/// Every thread of the target at one sampled instant, parsed.
package struct SampleSweep: Equatable, Sendable {
    /// When, in seconds on CLOCK_BOOTTIME.
    package var timeSeconds: Double
    /// The threads found, each once.
    package var readings: [ThreadReading]

    /// A sweep at `timeSeconds`.
    package init(timeSeconds: Double, readings: [ThreadReading]) {
        self.timeSeconds = timeSeconds
        self.readings = readings
    }

    /// Parses a raw sweep; threads whose texts do not parse (exited mid-read) are left out.
    package init(_ raw: RawSweep, clockTicksPerSecond: Double) {
        timeSeconds = raw.timeSeconds
        readings = raw.threads.compactMap { ThreadReading($0, clockTicksPerSecond: clockTicksPerSecond) }
    }
}
