#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clocks a trial reads. A protocol so the trial runner's arithmetic can be tested with a
/// scripted clock (STYLE.md §4); `SystemClocks` is the real one.
public protocol MeasurementClocks: Sendable {
    /// Monotonic wall time in nanoseconds (CLOCK_MONOTONIC).
    func wallNanoseconds() -> UInt64
    /// CPU time the calling thread has consumed, in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
    func threadCPUNanoseconds() -> UInt64
    /// The process's resource usage so far.
    func processUsage() -> ProcessUsage
}

/// A snapshot of getrusage(RUSAGE_SELF).
public struct ProcessUsage: Equatable, Sendable {
    /// User + system CPU time of every thread of the process.
    public var cpuNanoseconds: UInt64
    public var voluntaryContextSwitches: Int
    public var involuntaryContextSwitches: Int
    /// Peak resident set size in kilobytes (ru_maxrss).
    public var maxRSSKilobytes: Int

    public init(cpuNanoseconds: UInt64, voluntaryContextSwitches: Int, involuntaryContextSwitches: Int, maxRSSKilobytes: Int) {
        self.cpuNanoseconds = cpuNanoseconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.maxRSSKilobytes = maxRSSKilobytes
    }
}

public struct SystemClocks: MeasurementClocks {
    public init() {}

    public func wallNanoseconds() -> UInt64 { Self.read(CLOCK_MONOTONIC) }

    public func threadCPUNanoseconds() -> UInt64 { Self.read(CLOCK_THREAD_CPUTIME_ID) }

    public func processUsage() -> ProcessUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
        return ProcessUsage(
            cpuNanoseconds: ns(usage.ru_utime) + ns(usage.ru_stime),
            voluntaryContextSwitches: Int(usage.ru_nvcsw),
            involuntaryContextSwitches: Int(usage.ru_nivcsw),
            maxRSSKilobytes: Int(usage.ru_maxrss))
    }

    @inline(__always)
    static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
