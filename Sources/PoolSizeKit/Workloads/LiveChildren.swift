import CPoolSizeSys
import Foundation
import PoolSizeProcess
import Synchronization

/// The `--exec` children running now, so an interrupted sweep can stop them before it exits:
/// Ctrl-C in a terminal reaches the whole process group, but a SIGTERM sent to the sweep alone
/// (a CI job cancelled, `kill PID`) would otherwise leave its commands running as orphans.
package enum LiveChildren {
    struct State {
        var running: Set<pid_t> = []
        /// Spawns begun and not yet registered: stopAll waits for them, so a command started
        /// at the moment of the interrupt is not missed.
        var spawning = 0
        var stopping = false
    }

    static let state = Mutex(State())

    /// Call before posix_spawn; false once `stopAll` has begun (then spawn nothing).
    static func beginSpawn() -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.spawning += 1
            return true
        }
    }

    /// Ends a `beginSpawn`: registers the child, or nil when the spawn failed. A child that
    /// arrives after `stopAll` has taken its list is killed at once.
    static func endSpawn(_ pid: pid_t?) {
        let late = state.withLock { state in
            state.spawning -= 1
            if let pid { state.running.insert(pid) }
            return state.stopping
        }
        if late, let pid { kill(-pid, SIGTERM) }
    }

    static func remove(_ pid: pid_t) { _ = state.withLock { $0.running.remove(pid) } }

    /// The children running now.
    package static var running: Set<pid_t> { state.withLock { $0.running } }

    /// Stops new spawns, sends SIGTERM to every running child, waits up to `grace` seconds for
    /// the pool threads to reap them, then sends SIGKILL to those left. Returns how many it signalled.
    @discardableResult
    package static func stopAll(grace: Double = 1) -> Int {
        state.withLock { $0.stopping = true }
        let deadline = Date().addingTimeInterval(grace)
        // A spawn under way registers its child within microseconds.
        while state.withLock({ $0.spawning > 0 }) && Date() < deadline { usleep(1_000) }
        let first = running
        // Each command leads its own process group: signal the group, not just its leader.
        for pid in first { kill(-pid, SIGTERM) }
        while !running.isEmpty && Date() < deadline { usleep(10_000) }
        for pid in running { kill(-pid, SIGKILL) }
        // The pool threads blocked in wait4 reap the killed children; give them a moment so
        // none is left a zombie when the process exits (the kernel reaps those anyway).
        let reapDeadline = Date().addingTimeInterval(0.5)
        while !running.isEmpty && Date() < reapDeadline { usleep(5_000) }
        return first.count
    }

    /// Makes this process the reaper of its descendants' orphans, once: a command's background
    /// job that left its process group (setsid, a daemon) is then reparented here instead of to
    /// init, where `stopOrphans` finds it.
    package static func becomeReaper() {
        _ = reaper
    }

    private static let reaper: Int32 = poolsize_become_subreaper()

    /// Kills and reaps every child of this process that no task is waiting for: the orphans a
    /// sweep's commands left behind. Call when no command runs (the sweep's end, an interrupt
    /// after `stopAll`). Returns how many it stopped.
    /// - Parameter everyChild: also every process whose parent is this one, from /proc: the
    ///   per-thread lists can miss an orphan reparented while a thread exits. Only at the sweep's
    ///   end, when no other child (gnuplot) runs.
    @discardableResult
    package static func stopOrphans(everyChild: Bool = false) -> Int {
        var stopped = 0
        // Killing an orphan reparents its own children here: a few rounds take them too.
        for _ in 0..<8 {
            let orphans = children(everyChild: everyChild).subtracting(running)
            if orphans.isEmpty { break }
            for pid in orphans {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            }
            stopped += orphans.count
        }
        return stopped
    }

    /// This process's children, from every thread's /proc children list, and with `everyChild`
    /// every process whose parent is this one.
    static func children(everyChild: Bool = false) -> Set<pid_t> {
        var pids = Set(everyChild ? ProcReader.children(of: getpid()) : [])
        for task in ProcReader.ids(in: "/proc/self/task") {
            guard let text = ProcReader.text("/proc/self/task/\(task)/children") else { continue }
            pids.formUnion(text.split(separator: " ").compactMap { pid_t($0) })
        }
        return pids
    }
}
