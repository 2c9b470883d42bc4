import CPoolSizeSys
import Foundation

/// A long-running program started under a guardian process (`poolsize_spawn_guarded`, or
/// `poolsize_spawn_guarded_session` for one that leads a session of its own): the part
/// `ServerProcess` and observe's `ChildTarget` share. The guardian is the subreaper of
/// everything the program starts and stops whatever is left below it once told to
/// (`release`) or once poolsize dies, SIGKILL included; the program dies with the guardian
/// (PR_SET_PDEATHSIG). Its stdout and stderr go to pipes whose readers keep the last 16 KiB each
/// (`OutputTail`). What runs to its end under a watchdog is `ChildProcessRunner`'s instead.
package final class GuardedChild: @unchecked Sendable {
    // @unchecked: `control` and `status` are only touched under `lock`.
    /// The program's process id, which is also its process group id (and its session id when
    /// it leads one).
    package let pid: Int32
    private let guardian: Int32
    private let standardOutput: OutputTail
    private let standardError: OutputTail
    private let lock = NSLock()
    /// Closed to tell the guardian to stop everything below it; -1 once closed.
    private var control: Int32
    /// Where the guardian says that the program exited.
    private let report: Int32
    private var status: Int32?

    /// Why the program did not start.
    package enum Failure: Error, Equatable, Sendable {
        /// The pipes for its output could not be made; the errno.
        case pipes(errno: Int32)
        /// The spawn failed; the errno.
        case spawn(errno: Int32)
        /// `gate` refused it (poolsize is stopping).
        case refused
    }

    /// Starts `executable` with `arguments` (the whole argument vector, its name first) and
    /// returns once it runs. With `session` it leads a session of its own, else a process group.
    /// `gate` runs the spawn it is given, or refuses it by returning nil; it lets a caller make
    /// the started process known in the same step (`ServerProcess.stopAll`).
    package init(
        executable: String, arguments: [String], environment: [String: String]?, session: Bool,
        gate: (_ spawn: () -> (result: Int32, pid: Int32)) -> (result: Int32, pid: Int32)? = { $0() }
    ) throws(Failure) {
        guard let out = OutputTail(), let err = OutputTail() else { throw .pipes(errno: errno) }
        var (guardian, control, report): (Int32, Int32, Int32) = (0, -1, -1)
        let spawned = ChildProcessRunner.withCStrings(arguments) { argv in
            ChildProcessRunner.withCStrings(environment.map { $0.map { "\($0.key)=\($0.value)" } } ?? []) { envp in
                gate {
                    var child: Int32 = 0
                    let spawn = session ? poolsize_spawn_guarded_session : poolsize_spawn_guarded
                    let (o, e) = (out.writeDescriptor, err.writeDescriptor)
                    let result =
                        environment == nil
                        ? spawn(executable, argv, environ, o, e, &child, &guardian, &control, &report)
                        : spawn(executable, argv, envp, o, e, &child, &guardian, &control, &report)
                    return (result, child)
                }
            }
        }
        // The guardian and the program hold the write ends now.
        out.closeWriteEnd()
        err.closeWriteEnd()
        guard let spawned else { throw .refused }
        guard spawned.result == 0 else { throw .spawn(errno: spawned.result) }
        _ = fcntl(report, F_SETFL, fcntl(report, F_GETFL) | O_NONBLOCK)
        (pid, self.guardian, self.control, self.report) = (spawned.pid, guardian, control, report)
        (standardOutput, standardError) = (out, err)
    }

    deinit { close(report) }

    /// The program's wait status once the guardian has reaped it; nil while it runs.
    package var exitStatus: Int32? {
        lock.withLock {
            GuardianReport.update(&status, from: report)
            return status
        }
    }

    /// Tells the guardian to stop whatever is left below it and waits for it to exit; returns
    /// the program's wait status (SIGKILL when the guardian never said). Safe to call more than
    /// once.
    package func release() -> Int32 {
        lock.withLock {
            if control >= 0 {
                close(control)
                control = -1
                var raw: Int32 = 0
                while waitpid(guardian, &raw, 0) < 0 && errno == EINTR {}
            }
            // The guardian has exited: all it wrote is in the pipe, and then the end of it.
            GuardianReport.update(&status, from: report)
            return status ?? SIGKILL
        }
    }

    /// The last of what the program wrote on stdout and on stderr so far (16 KiB of each at
    /// most); with `waitingSeconds`, first up to that long for each pipe's end (every writer
    /// gone once it is stopped, so the readers only have to take the last bytes).
    package func output(waitingSeconds: Double? = nil) -> (standardOutput: String, standardError: String) {
        if let waitingSeconds {
            standardOutput.waitForEnd(seconds: waitingSeconds)
            standardError.waitForEnd(seconds: waitingSeconds)
        }
        return (standardOutput.text, standardError.text)
    }
}
