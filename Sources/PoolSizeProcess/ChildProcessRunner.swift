import CPoolSizeSys
import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// What a child process did: how it ended and what it printed.
package struct ChildRun: Equatable, Sendable {
    package var outcome: ChildOutcome
    package var standardOutput: String
    package var standardError: String
    package var seconds: Double
    /// CPU time (user + system) of the child and of the descendants it waited for, from the
    /// rusage wait4 returns when it reaps the child; 0 when it was not reaped (not started,
    /// or still there after the watchdog).
    package var cpuSeconds: Double = 0
    /// How long the busiest thread of the child and its descendants was on a CPU or waiting for
    /// one, seconds (`ThreadCPUPeaks`), sampled every 50 ms while it ran (`run`'s
    /// `watchThreads`); nil when not watched.
    package var busiestThreadSeconds: Double?
}

/// The one way poolsize runs another program (gnuplot, a probe's child, `observe --counter`):
/// under a watchdog that sends SIGTERM when the child has not exited after `timeoutSeconds`,
/// then SIGKILL one second later, so whatever the child does (hang, trap, spin, ignore
/// SIGTERM), `run` returns. The argument vector goes to the program as is; no shell is involved.
///
/// The child leads a process group of its own and dies with the thread that started it
/// (PR_SET_PDEATHSIG; that thread waits in `run` for as long as the child lives): the watchdog
/// and the end of the run stop the whole group, so a background job the child left (a counter
/// script's `cmd &`) goes with it instead of outliving poolsize. The run ends when the child
/// exits: nothing waits for the end of its output, which such a job may hold open (Foundation's
/// `Process` waited for exactly that, and reported a finished counter as hanging). Its output goes
/// to files without a name (`UnlinkedFile`), so none is left in TMPDIR however poolsize ends.
package struct ChildProcessRunner: Sendable {
    package var timeoutSeconds: Double

    /// Children running now, and whether `stopAll` has begun (then no new one starts).
    static let live = Mutex<(running: Set<Int32>, stopping: Bool)>(([], false))

    /// Stops every child running now, with its group (SIGKILL: an interrupted process exits
    /// right after), and refuses new ones, so no gnuplot outlives an interrupted sweep.
    package static func stopAll() {
        let running = live.withLock { state in
            state.stopping = true
            return state.running
        }
        for pid in running { kill(-pid, SIGKILL) }
    }

    /// Stops every child running now, with its group, and lets new ones start: an interrupted
    /// `observe --counter` read ends at once, and the observation's charts can still render.
    package static func stopRunning() {
        for pid in live.withLock({ $0.running }) { kill(-pid, SIGKILL) }
    }

    package init(timeoutSeconds: Double) {
        self.timeoutSeconds = timeoutSeconds
    }

    /// - Parameters:
    ///   - environment: the child's environment; this process's when nil.
    ///   - watchThreads: sample how busy the child's threads and its descendants' are while it
    ///     runs, for `ChildRun.busiestThreadSeconds`.
    package func run(
        executable: URL, arguments: [String], environment: [String: String]? = nil, watchThreads: Bool = false
    ) -> ChildRun {
        let files = FileManager.default.temporaryDirectory
        guard let out = UnlinkedFile(in: files), let err = UnlinkedFile(in: files) else {
            return Self.notStarted(
                "cannot create temporary files in \(files.path) (\(String(cString: strerror(errno))))")
        }
        let t0 = Date()
        let environment = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let spawned: (pid: Int32, error: Int32)? = Self.withCStrings([executable.path] + arguments) { argv in
            Self.withCStrings(environment ?? []) { envp in
                // Spawned and made known to `stopAll` in one step, and none once it has begun.
                Self.live.withLock { state in
                    guard !state.stopping else { return nil }
                    var pid: Int32 = 0
                    let (o, e) = (out.descriptor, err.descriptor)
                    let error =
                        environment == nil
                        ? poolsize_spawn_group_fds(executable.path, argv, environ, o, e, &pid)
                        : poolsize_spawn_group_fds(executable.path, argv, envp, o, e, &pid)
                    if error == 0 { state.running.insert(pid) }
                    return (pid, error)
                }
            }
        }
        guard let spawned else { return Self.notStarted(Self.interrupted) }
        guard spawned.error == 0 else {
            return Self.notStarted("\(executable.path): \(String(cString: strerror(spawned.error)))")
        }
        let pid = spawned.pid
        defer { _ = Self.live.withLock { $0.running.remove(pid) } }

        // Waits for the child to exit without reaping it, so its pid (the group's id) stays
        // its own until the group has been stopped.
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            exited.signal()
        }
        var timedOut = false
        var threads = ThreadCPUPeaks()
        let deadline = DispatchTime.now() + timeoutSeconds
        if watchThreads {
            while exited.wait(timeout: min(deadline, .now() + 0.05)) == .timedOut {
                guard DispatchTime.now() < deadline else {
                    timedOut = true
                    break
                }
                threads.sample(tree: pid)
            }
        } else if exited.wait(timeout: deadline) == .timedOut {
            timedOut = true
        }
        if timedOut {
            kill(-pid, SIGTERM)
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(-pid, SIGKILL)
                // A SIGKILLed process exits at once; the bound is only for a kernel in trouble.
                _ = exited.wait(timeout: .now() + 2)
            }
        }
        // Whatever the child left running in its group ends with it (ESRCH when nothing is).
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        var usage = rusage()
        let reaped = wait4(pid, &status, timedOut ? WNOHANG : 0, &usage) == pid
        let seconds = Date().timeIntervalSince(t0)
        let outcome: ChildOutcome
        if timedOut || !reaped {
            outcome = .timedOut(afterSeconds: timeoutSeconds)
        } else {
            outcome = ChildOutcome(waitStatus: status)
        }
        let cpu = reaped ? Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime) : 0
        var run = ChildRun(
            outcome: outcome, standardOutput: out.text, standardError: err.text, seconds: seconds, cpuSeconds: cpu)
        if watchThreads { run.busiestThreadSeconds = threads.busiestSeconds ?? 0 }
        return run
    }

    /// Why a child was not started once `stopAll` had begun.
    package static let interrupted = "interrupted"

    static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

    static func notStarted(_ reason: String) -> ChildRun {
        ChildRun(outcome: .failedToStart(reason: reason), standardOutput: "", standardError: "", seconds: 0)
    }
}
