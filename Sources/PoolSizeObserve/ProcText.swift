/// Parsers for the per-thread /proc files the observer reads. Pure: text in, numbers out, nil
/// for text of another shape (a thread that exited mid-read leaves an empty file).
public enum ProcText {
    /// `/proc/PID/task/TID/schedstat`: nanoseconds on a CPU, nanoseconds waiting on a run queue,
    /// timeslices run (Documentation/scheduler/sched-stats.rst).
    public static func schedstat(_ text: some StringProtocol) -> (cpuNanoseconds: UInt64, runQueueNanoseconds: UInt64, timeslices: UInt64)? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 3, let cpu = UInt64(fields[0]), let queue = UInt64(fields[1]), let slices = UInt64(fields[2]) else { return nil }
        return (cpu, queue, slices)
    }

    /// The fields of `/proc/PID/task/TID/stat` the observer uses (proc_pid_stat(5)).
    public struct Stat: Equatable, Sendable {
        /// Field 2 without its parentheses: the thread's name (may hold spaces and parentheses).
        public var comm: String
        /// Field 3: R running or runnable, S sleeping, D uninterruptible (disk), T stopped, …
        public var state: Character
        /// Fields 14 and 15: user and system CPU, in clock ticks.
        public var cpuTicks: UInt64
        /// Field 22: when the thread started, in clock ticks since boot.
        public var startTicks: UInt64
    }

    /// Parses a stat line. The fields are counted after the *last* `)`: a JVM thread named
    /// `C2 CompilerThre` or a comm holding `) S (` would shift a naive split.
    public static func stat(_ text: some StringProtocol) -> Stat? {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") , open < close else { return nil }
        let comm = String(text[text.index(after: open)..<close])
        let rest = text[text.index(after: close)...].split(separator: " ")
        // rest[0] is field 3, so field k is rest[k − 3].
        guard rest.count >= 20, let state = rest[0].first,
              let user = UInt64(rest[11]), let system = UInt64(rest[12]), let start = UInt64(rest[19]) else { return nil }
        return Stat(comm: comm, state: state, cpuTicks: user + system, startTicks: start)
    }

    /// `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` from `/proc/PID/task/TID/status`.
    public static func switches(_ text: some StringProtocol) -> (voluntary: UInt64, involuntary: UInt64)? {
        guard let voluntary = statusValue(text, key: "voluntary_ctxt_switches"),
              let involuntary = statusValue(text, key: "nonvoluntary_ctxt_switches") else { return nil }
        return (voluntary, involuntary)
    }

    /// The real user id (first number of `Uid:`) from a status text.
    public static func realUID(_ text: some StringProtocol) -> UInt32? {
        statusValue(text, key: "Uid").flatMap { UInt32(exactly: $0) }
    }

    /// The first number after `key:` on its line of a status text.
    static func statusValue(_ text: some StringProtocol, key: String) -> UInt64? {
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return line.dropFirst(key.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { UInt64($0) }
        }
        return nil
    }
}
