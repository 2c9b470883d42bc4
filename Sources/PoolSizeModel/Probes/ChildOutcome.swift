/// How a child process run under a watchdog ended. Produced by the kit's child runner; kept
/// here, free of processes, so the deadlock verdict can be tested on fixed outcomes.
package enum ChildOutcome: Equatable, Sendable, Codable {
    /// The child exited on its own with this status.
    case exited(code: Int32)
    /// The child was killed by this signal (a trap, an abort, a crash).
    case signaled(signal: Int32)
    /// The child was still running when the watchdog fired and was killed with SIGKILL.
    case timedOut(afterSeconds: Double)
    /// The child could not be started at all.
    case failedToStart(reason: String)

    /// How a reaped child ended, from its wait status (waitpid's): the signal that ended it,
    /// else its exit status.
    package init(waitStatus status: Int32) {
        self = status & 0x7f != 0 ? .signaled(signal: status & 0x7f) : .exited(code: (status >> 8) & 0xff)
    }

    /// One line: `exited with status 0`, `killed by SIGILL (4)`, …
    package var summary: String {
        switch self {
        case let .exited(code): return "exited with status \(code)"
        case let .signaled(signal): return "killed by \(Self.signalName(signal)) (\(signal))"
        case let .timedOut(seconds):
            return "no exit within \(String(format: "%.1f", seconds)) s; killed by the watchdog"
        case let .failedToStart(reason): return "could not start: \(reason)"
        }
    }

    /// Linux x86-64/arm64 signal numbers of the signals a trapped or killed child shows.
    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
            8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
