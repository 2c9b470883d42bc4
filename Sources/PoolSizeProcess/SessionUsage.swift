import Foundation

/// What every process of a session uses, read from /proc at one moment: a server poolsize
/// started leads a session of its own, so its workers, forks and daemons are all counted. Two
/// readings give a trial's server-side figures (`since(_:)`).
package struct SessionUsage: Equatable, Sendable {
    /// CPU time of each live thread (/proc/PID/task/TID/schedstat, nanoseconds), by thread id:
    /// nanosecond counts, where /proc/PID/stat's ticks would be 10 ms coarse.
    package var threadCPUNanoseconds: [Int32: UInt64] = [:]
    /// Resident memory of the processes together, in KiB (/proc/PID/statm).
    package var rssKilobytes = 0
    /// Voluntary context switches of the live threads (a thread blocking: waiting on IO, a lock,
    /// a sleep).
    package var voluntarySwitches = 0
    /// Involuntary context switches of the live threads (a thread preempted: more runnable
    /// threads than cores).
    package var involuntarySwitches = 0
    /// The processes read.
    package var processes = 0
    /// The process of each thread read, by thread id: what each process used is its threads'.
    package var processOfThread: [Int32: Int32] = [:]

    /// A reading of nothing: no process, no thread.
    package init() {}

    /// Threads alive at the reading.
    package var threads: Int { threadCPUNanoseconds.count }

    /// A reading of every process alive in `session` now; an empty one when none is.
    package static func read(session: Int32) -> SessionUsage {
        read(processes: ProcReader.processes(inSession: session), switches: true)
    }

    /// A reading of `processes` (found once with `ProcReader.processes(inSession:)`): their
    /// threads' CPU and their memory, and with `switches` their context switches, which take a
    /// text file per thread to read. Cheap enough without them to read every few milliseconds.
    package static func read(processes: [Int32], switches: Bool) -> SessionUsage {
        var usage = SessionUsage()
        for pid in processes {
            guard let threads = ProcReader.threads(of: pid) else { continue }
            usage.processes += 1
            if let resident = ProcReader.residentBytes(of: String(pid)) { usage.rssKilobytes += resident / 1024 }
            for tid in threads {
                if let nanoseconds = ProcReader.threadCPUNanoseconds(pid: pid, tid: tid) {
                    usage.threadCPUNanoseconds[tid] = nanoseconds
                    usage.processOfThread[tid] = pid
                }
                if switches, let counts = ProcReader.switches(pid: pid, tid: tid) {
                    usage.voluntarySwitches += Int(counts.voluntary)
                    usage.involuntarySwitches += Int(counts.involuntary)
                }
            }
        }
        return usage
    }

    /// The CPU the session's threads used since `earlier`: each thread's growth, a thread
    /// started since counted whole. A thread that ended in between takes its last stretch with
    /// it (a server's pool threads live for the whole trial).
    package func cpuNanoseconds(since earlier: SessionUsage) -> UInt64 {
        threadCPUNanoseconds.reduce(0) { sum, entry in
            let before = earlier.threadCPUNanoseconds[entry.key] ?? 0
            return sum + (entry.value >= before ? entry.value - before : entry.value)
        }
    }
}
