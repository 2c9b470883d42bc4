#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Foundation
import PoolSizeProcess

/// The clocks a trial reads, and the waits that pass time on them. A protocol so the trial
/// runners' arithmetic can be tested with a scripted clock, or with a simulated pool whose time
/// moves only when the runner sleeps or waits (docs/conventions.md); `SystemClocks` is the real one.
package protocol MeasurementClocks: Sendable {
    /// Monotonic wall time in nanoseconds (CLOCK_MONOTONIC).
    func wallNanoseconds() -> UInt64
    /// CPU time the calling thread has consumed, in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
    func threadCPUNanoseconds() -> UInt64
    /// The process's resource usage so far.
    func processUsage() -> ProcessUsage
    /// CPU time every CPU of the machine has spent busy (not idle or iowait) since boot, from
    /// `/proc/stat`; nil where unavailable. Minus the process's own CPU, it shows other load.
    func machineBusyNanoseconds() -> UInt64?
    /// Blocks the calling thread until `wallNanoseconds()` reaches `deadline`; returns at once
    /// when it has passed.
    func sleep(until deadline: UInt64)
    /// Waits at most `timeoutSeconds` for every task entered in `group` to leave it; true when
    /// they all did. The open loop's drain waits here, so a simulated pool can run what it holds.
    func wait(for group: DispatchGroup, timeoutSeconds: Double) -> Bool
}

/// A snapshot of getrusage(RUSAGE_SELF).
package struct ProcessUsage: Equatable, Sendable {
    /// User + system CPU time of every thread of the process.
    package var cpuNanoseconds: UInt64
    /// Voluntary context switches (blocking) so far.
    package var voluntaryContextSwitches: Int
    /// Involuntary context switches (preemption) so far.
    package var involuntaryContextSwitches: Int
    /// Peak resident set size in kilobytes (ru_maxrss).
    package var maxRSSKilobytes: Int

    /// A snapshot with the given figures.
    package init(
        cpuNanoseconds: UInt64, voluntaryContextSwitches: Int, involuntaryContextSwitches: Int, maxRSSKilobytes: Int
    ) {
        self.cpuNanoseconds = cpuNanoseconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.maxRSSKilobytes = maxRSSKilobytes
    }
}

/// The real clocks: clock_gettime, getrusage and /proc/stat.
package struct SystemClocks: MeasurementClocks {
    /// The system's clocks.
    package init() {}

    /// CLOCK_MONOTONIC in nanoseconds.
    package func wallNanoseconds() -> UInt64 { Self.read(CLOCK_MONOTONIC) }

    /// CLOCK_THREAD_CPUTIME_ID in nanoseconds.
    package func threadCPUNanoseconds() -> UInt64 { Self.read(CLOCK_THREAD_CPUTIME_ID) }

    /// getrusage(RUSAGE_SELF), plus the CPU of reaped children (RUSAGE_CHILDREN): a task that
    /// runs a command (`--exec`) spends its CPU in the child, and that CPU is the pool's load.
    package func processUsage() -> ProcessUsage {
        let usage = Platform.resourceUsage(), children = Platform.resourceUsage(ofChildren: true)
        return ProcessUsage(
            cpuNanoseconds: Platform.cpuNanoseconds(usage) + Platform.cpuNanoseconds(children),
            voluntaryContextSwitches: Int(usage.ru_nvcsw),
            involuntaryContextSwitches: Int(usage.ru_nivcsw),
            maxRSSKilobytes: Int(usage.ru_maxrss))
    }

    /// Busy CPU time of the whole machine from /proc/stat (`ProcReader`); nil where it cannot
    /// be read.
    package func machineBusyNanoseconds() -> UInt64? { ProcReader.machineBusyNanoseconds() }

    /// Sleeps to an absolute time on CLOCK_MONOTONIC: no drift from computing a relative
    /// interval, and a sleep cut short by a signal resumes to the same deadline.
    package func sleep(until deadline: UInt64) {
        guard deadline > wallNanoseconds() else { return }
        Platform.sleep(untilMonotonicNanoseconds: deadline)
    }

    /// A blocking wait on the group.
    package func wait(for group: DispatchGroup, timeoutSeconds: Double) -> Bool {
        group.wait(timeout: .now() + timeoutSeconds) == .success
    }

    @inline(__always)
    static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
