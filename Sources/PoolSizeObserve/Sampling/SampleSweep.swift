import PoolSizeProcess

/// Every thread of the target at one sampled instant, parsed.
package struct SampleSweep: Equatable, Sendable {
    /// When, in seconds on CLOCK_BOOTTIME.
    package var timeSeconds: Double
    /// The threads found, each once.
    package var readings: [ThreadReading]
    /// Each watched process's CPU (utime + stime, its ended threads included), nanoseconds;
    /// empty when not read.
    package var processCPUNanoseconds: [Int32: UInt64]

    /// A sweep at `timeSeconds`.
    package init(timeSeconds: Double, readings: [ThreadReading], processCPUNanoseconds: [Int32: UInt64] = [:]) {
        self.timeSeconds = timeSeconds
        self.readings = readings
        self.processCPUNanoseconds = processCPUNanoseconds
    }

    /// Parses a raw sweep; threads whose texts do not parse (exited mid-read) are left out.
    package init(_ raw: RawSweep, clockTicksPerSecond: Double) {
        timeSeconds = raw.timeSeconds
        readings = raw.threads.compactMap { ThreadReading($0, clockTicksPerSecond: clockTicksPerSecond) }
        var processes: [Int32: UInt64] = [:]
        for process in raw.processes ?? [] {
            guard let stat = ProcText.stat(process.stat) else { continue }
            processes[process.pid] = UInt64((Double(stat.cpuTicks) / clockTicksPerSecond * 1e9).rounded())
        }
        processCPUNanoseconds = processes
    }
}
