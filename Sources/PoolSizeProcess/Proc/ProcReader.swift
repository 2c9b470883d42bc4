import Foundation

/// Reads a process's or a thread's /proc files once each and hands the text to `ProcText`: the
/// one reader for everything outside the observer's kept-open files (a server's session, its
/// threads' CPU, a database backend's CPU, this process's children and threads, the machine's
/// busy time). Each answer is
/// nil, or left out, for a process or thread that has ended meanwhile.
package enum ProcReader {
    /// A file's text; nil when it cannot be read. Read as bytes: a command's name is whatever
    /// bytes it set (prctl, setproctitle), not always UTF-8, and a process skipped for its name
    /// would be missed (a server's process outliving its stop).
    package static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The ids in a /proc directory (`/proc`, `/proc/PID/task`); empty when it cannot be read.
    package static func ids(in directory: String) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap { Int32($0) }
    }

    /// Every process alive now.
    package static func processes() -> [Int32] { ids(in: "/proc") }

    /// The children of `pid` from its threads' `children` files, without scanning every
    /// process; empty when it has ended.
    package static func taskChildren(of pid: Int32) -> [Int32] {
        ids(in: "/proc/\(pid)/task").flatMap { tid in
            (text("/proc/\(pid)/task/\(tid)/children") ?? "").split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Whether `pid` has a handler for `signal`; nil when its status cannot be read.
    package static func catches(_ signal: Int32, pid: Int32) -> Bool? {
        text("/proc/\(pid)/status").flatMap(ProcText.caughtSignals).map { $0 & (1 << UInt64(signal - 1)) != 0 }
    }

    /// The names in a directory; nil when it cannot be read (its process has ended).
    static func entries(_ directory: String) -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: directory)
    }

    /// The threads of `pid`; nil when the process has ended.
    package static func threads(of pid: Int32) -> [Int32]? {
        entries("/proc/\(pid)/task")?.compactMap { Int32($0) }
    }

    /// `/proc/PID/stat`, parsed.
    package static func stat(_ pid: Int32) -> ProcText.Stat? {
        text("/proc/\(pid)/stat").flatMap(ProcText.stat)
    }

    /// The processes alive in session `session`; a zombie is dead and not counted.
    package static func processes(inSession session: Int32) -> [Int32] {
        processes().filter { pid in
            guard let stat = stat(pid) else { return false }
            return stat.session == session && stat.state != "Z" && stat.state != "X"
        }
    }

    /// The processes whose parent is `parent`.
    package static func children(of parent: Int32) -> [Int32] {
        processes().filter { $0 != parent && stat($0)?.parent == parent }
    }

    /// A process's CPU so far, in nanoseconds: its leading thread's time on a CPU from
    /// schedstat, or the process's utime + stime in clock ticks where the kernel keeps no
    /// schedstat.
    package static func processCPUNanoseconds(_ pid: Int32) -> UInt64? {
        if let schedstat = text("/proc/\(pid)/schedstat").flatMap(ProcText.schedstat) {
            return schedstat.cpuNanoseconds
        }
        guard let ticks = stat(pid)?.cpuTicks else { return nil }
        return ticks * 1_000_000_000 / UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
    }

    /// A thread's time on a CPU so far, in nanoseconds (schedstat: exact, where stat's ticks
    /// are 10 ms coarse).
    package static func threadCPUNanoseconds(pid: Int32, tid: Int32) -> UInt64? {
        text("/proc/\(pid)/task/\(tid)/schedstat").flatMap(ProcText.schedstat)?.cpuNanoseconds
    }

    /// A thread's voluntary and involuntary context switches so far, each 0 when its status
    /// has no such line; nil when the thread has ended.
    package static func switches(pid: Int32, tid: Int32) -> (voluntary: UInt64, involuntary: UInt64)? {
        guard let status = text("/proc/\(pid)/task/\(tid)/status") else { return nil }
        return (
            ProcText.statusValue(status, key: "voluntary_ctxt_switches") ?? 0,
            ProcText.statusValue(status, key: "nonvoluntary_ctxt_switches") ?? 0
        )
    }

    /// How many files `pid` holds open (its /proc/PID/fd entries: files, sockets, pipes); nil
    /// when the process has ended or its table cannot be read.
    package static func openFiles(of pid: Int32) -> Int? {
        entries("/proc/\(pid)/fd")?.count
    }

    /// Which of `processes` hold a socket listening on TCP `port` (this network namespace's
    /// /proc/net/tcp and tcp6, matched to each process's descriptors by inode): the processes
    /// that may accept its connections, a supervisor that only holds it included.
    package static func listeners(onPort port: Int, among processes: [Int32]) -> [Int32] {
        let inodes = ["/proc/net/tcp", "/proc/net/tcp6"].reduce(into: Set<UInt64>()) { found, path in
            found.formUnion(text(path).map { ProcText.listeningInodes($0, port: port) } ?? [])
        }
        guard !inodes.isEmpty else { return [] }
        let wanted = Set(inodes.map { "socket:[\($0)]" })
        return processes.filter { pid in
            let directory = "/proc/\(pid)/fd"
            return (entries(directory) ?? []).contains { entry in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(entry)"))
                    .map(wanted.contains) ?? false
            }
        }
    }

    /// A process's resident memory, in bytes (statm's resident pages); `process` is its id or
    /// `self`.
    package static func residentBytes(of process: String) -> Int? {
        guard let pages = text("/proc/\(process)/statm").flatMap(ProcText.residentPages) else { return nil }
        return Int(pages) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The whole machine's busy CPU time so far, in nanoseconds (`/proc/stat`'s ticks, 100 a
    /// second on Linux).
    package static func machineBusyNanoseconds() -> UInt64? {
        text("/proc/stat").flatMap(ProcText.machineBusyTicks).map { $0 * 10_000_000 }
    }

    /// The threads this process has now (status's `Threads:`).
    package static func ownThreadCount() -> Int? {
        text("/proc/self/status").flatMap { ProcText.statusValue($0, key: "Threads") }.map { Int($0) }
    }

    /// The name (comm) of thread `tid`, without its newline (any thread: /proc/TID answers for
    /// threads that are not a process's leader too); nil when it has ended.
    package static func threadName(_ tid: Int32) -> String? {
        text("/proc/\(tid)/comm").map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    }
}
