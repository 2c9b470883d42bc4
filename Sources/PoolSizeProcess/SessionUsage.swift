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
        read(processes: ServerProcess.processes(inSession: session), switches: true)
    }

    /// A reading of `processes` (found once with `ServerProcess.processes(inSession:)`): their
    /// threads' CPU and their memory, and with `switches` their context switches, which take a
    /// text file per thread to read. Cheap enough without them to read every few milliseconds.
    package static func read(processes: [Int32], switches: Bool) -> SessionUsage {
        var usage = SessionUsage()
        let pageKilobytes = Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        for pid in processes {
            let base = "/proc/\(pid)"
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "\(base)/task") else { continue }
            usage.processes += 1
            if let statm = text("\(base)/statm"), let resident = statm.split(separator: " ").dropFirst().first,
                let pages = Int(resident)
            {
                usage.rssKilobytes += pages * pageKilobytes
            }
            for task in tasks {
                guard let tid = Int32(task) else { continue }
                if let schedstat = text("\(base)/task/\(task)/schedstat"),
                    let first = schedstat.split(separator: " ").first, let nanoseconds = UInt64(first)
                {
                    usage.threadCPUNanoseconds[tid] = nanoseconds
                    usage.processOfThread[tid] = pid
                }
                if switches, let status = text("\(base)/task/\(task)/status") {
                    usage.voluntarySwitches += field(status, "\nvoluntary_ctxt_switches:")
                    usage.involuntarySwitches += field(status, "\nnonvoluntary_ctxt_switches:")
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

    /// A file's text; nil when it cannot be read (the process or thread ended).
    static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The number after `name` on its line of a /proc status file; 0 when absent.
    static func field(_ status: String, _ name: String) -> Int {
        guard let range = status.range(of: name) else { return 0 }
        let rest = status[range.upperBound...].drop { $0 == " " || $0 == "\t" }
        return Int(rest.prefix { $0.isNumber }) ?? 0
    }
}
