import CPoolSizeSys
import Foundation
import PoolSizeProcess

/// A command `observe -- CMD ARGS…` starts as its target. Being our descendant it can be read
/// under Yama's ptrace_scope 1, which forbids reading anyone else's syscalls. It runs under a
/// guardian process of its own (`poolsize_spawn_guarded`): it leads a process group and dies
/// with the guardian (PR_SET_PDEATHSIG), and the guardian, the subreaper of everything the
/// command starts, stops the group and every descendant left, setsid'd ones included, when
/// the observation ends or observe dies, SIGKILL included, so nothing the command started
/// outlives the observation. The guardian has a process group and a name (`guardian`) of its
/// own, so that killing observe by its job, group or name leaves it alive to do so. `stop` first ends the group with SIGTERM (a target may print its
/// own figures on it), then SIGKILL. Its output goes to pipes whose readers keep the last 16 KiB
/// each (`OutputTail`), so a command that prints without end costs neither disk nor memory.
package final class ChildTarget: Sendable {
    /// The child's process id (and process group id).
    package var pid: Int32 { child.pid }
    private let child: GuardedChild

    /// Why a command could not be started.
    package enum Failure: Error, Equatable, Sendable {
        /// Not on PATH, not executable, or a directory.
        case notFound(program: String, reason: String)
        /// The spawn failed; the errno's text.
        case cannotStart(program: String, reason: String)
    }

    /// Starts `arguments` (the program resolved on `PATH` unless it holds a `/`); returns once
    /// the program runs.
    package init(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(Failure)
    {
        guard let program = arguments.first else { throw .notFound(program: "", reason: "no command after --") }
        let executable = try Self.resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        do {
            // This process's own environment: `environment` only says where to find the program.
            child = try GuardedChild(executable: executable, arguments: arguments, environment: nil, session: false)
        } catch {
            switch error {
            case let .pipes(errno):
                throw .cannotStart(program: program, reason: "cannot create pipes: \(String(cString: strerror(errno)))")
            case let .spawn(errno):
                throw .cannotStart(program: program, reason: String(cString: strerror(errno)))
            case .refused:
                throw .cannotStart(program: program, reason: "refused")
            }
        }
    }

    deinit { _ = stop(graceSeconds: 0) }

    /// Whether the child has exited (the guardian reaps it).
    package var hasExited: Bool { child.exitStatus != nil }

    /// Ends the child's process group: SIGTERM, up to `graceSeconds` for it to exit, then
    /// SIGKILL; then has the guardian stop whatever is left below it and waits for it. Returns
    /// the child's wait status. Safe to call more than once.
    @discardableResult
    package func stop(graceSeconds: Double) -> Int32 {
        if !hasExited {
            ChildProcessRunner.terminate(graceSeconds: graceSeconds) {
                kill(-pid, $0)
            } ended: {
                hasExited
            }
        }
        // Whatever else is left in the group goes too (ESRCH when nothing is).
        kill(-pid, SIGKILL)
        return child.release()
    }

    /// The last of what the child wrote on stdout and on stderr so far (16 KiB of each at most).
    package var output: (standardOutput: String, standardError: String) {
        // After `stop` every writer is gone: the readers only have to take the last bytes.
        child.output(waitingSeconds: child.exitStatus != nil ? 1 : nil)
    }

    static func resolve(_ program: String, path: String) throws(Failure) -> String {
        switch ChildProcessRunner.locate(program, path: path) {
        case let .success(found): return found
        case let .failure(failure): throw .notFound(program: program, reason: failure.reason)
        }
    }
}
