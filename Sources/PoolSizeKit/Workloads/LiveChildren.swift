import Foundation
import Synchronization

/// The `--exec` children running now, so an interrupted sweep can stop them before it exits:
/// Ctrl-C in a terminal reaches the whole process group, but a SIGTERM sent to the sweep alone
/// (a CI job cancelled, `kill PID`) would otherwise leave its commands running as orphans.
public enum LiveChildren {
    static let pids = Mutex<(running: Set<pid_t>, stopping: Bool)>(([], false))

    /// Registers a child; once `stopAll` has begun, kills it at once instead.
    static func add(_ pid: pid_t) {
        let stopping = pids.withLock { state in
            if !state.stopping { state.running.insert(pid) }
            return state.stopping
        }
        if stopping { kill(pid, SIGKILL) }
    }
    static func remove(_ pid: pid_t) { _ = pids.withLock { $0.running.remove(pid) } }

    /// The children running now.
    public static var running: Set<pid_t> { pids.withLock { $0.running } }

    /// Sends SIGTERM to every running child, waits up to `grace` seconds for the pool threads
    /// to reap them, then sends SIGKILL to those left. Returns how many were stopped.
    @discardableResult
    public static func stopAll(grace: Double = 1) -> Int {
        let first = pids.withLock { state in
            state.stopping = true
            return state.running
        }
        for pid in first { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while !running.isEmpty && Date() < deadline { usleep(10_000) }
        for pid in running { kill(pid, SIGKILL) }
        // The pool threads blocked in wait4 reap the killed children; give them a moment so
        // none is left a zombie when the process exits (the kernel reaps those anyway).
        let reapDeadline = Date().addingTimeInterval(0.5)
        while !running.isEmpty && Date() < reapDeadline { usleep(5_000) }
        return first.count
    }
}
