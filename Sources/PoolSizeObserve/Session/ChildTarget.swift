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
package final class ChildTarget: @unchecked Sendable {
    /// The child's process id (and process group id).
    package let pid: Int32
    private let guardian: Int32
    private let standardOutput: OutputTail
    private let standardError: OutputTail
    private let lock = NSLock()
    /// Closed to tell the guardian that the observation is over; -1 once closed.
    private var control: Int32
    /// Where the guardian says that the target exited.
    private let report: Int32
    private var status: Int32?

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
        guard let out = OutputTail(), let err = OutputTail() else {
            throw .cannotStart(program: program, reason: "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var (child, guardian, control, report): (Int32, Int32, Int32, Int32) = (0, 0, -1, -1)
        let result = poolsize_spawn_guarded(
            executable, argv, environ, out.writeDescriptor, err.writeDescriptor, &child, &guardian, &control, &report)
        // The guardian and the command hold the write ends now.
        out.closeWriteEnd()
        err.closeWriteEnd()
        guard result == 0 else { throw .cannotStart(program: program, reason: String(cString: strerror(result))) }
        _ = fcntl(report, F_SETFL, fcntl(report, F_GETFL) | O_NONBLOCK)
        (pid, self.guardian, self.control, self.report) = (child, guardian, control, report)
        (standardOutput, standardError) = (out, err)
    }

    deinit {
        _ = stop(graceSeconds: 0)
        close(report)
    }

    /// Whether the child has exited (the guardian reaps it).
    package var hasExited: Bool {
        lock.lock()
        defer { lock.unlock() }
        readReport()
        return status != nil
    }

    /// Reads what the guardian has said (`GuardianReport`). Call with `lock` held.
    private func readReport() { GuardianReport.update(&status, from: report) }

    /// Ends the child's process group: SIGTERM, up to `graceSeconds` for it to exit, then
    /// SIGKILL; then has the guardian stop whatever is left below it and waits for it. Returns
    /// the child's wait status. Safe to call more than once.
    @discardableResult
    package func stop(graceSeconds: Double) -> Int32 {
        if !hasExited {
            kill(-pid, SIGTERM)
            let deadline = Date().addingTimeInterval(graceSeconds)
            while !hasExited && Date() < deadline { usleep(10_000) }
        }
        // Whatever else is left in the group goes too (ESRCH when nothing is).
        kill(-pid, SIGKILL)
        lock.lock()
        defer { lock.unlock() }
        if control >= 0 {
            close(control)
            control = -1
            var raw: Int32 = 0
            while waitpid(guardian, &raw, 0) < 0 && errno == EINTR {}
        }
        // The guardian has exited: all it wrote is in the pipe, and then the end of it.
        readReport()
        return status ?? SIGKILL
    }

    /// The last of what the child wrote on stdout and on stderr so far (16 KiB of each at most).
    package var output: (standardOutput: String, standardError: String) {
        // After `stop` every writer is gone: the readers only have to take the last bytes.
        if status != nil {
            standardOutput.waitForEnd(seconds: 1)
            standardError.waitForEnd(seconds: 1)
        }
        return (standardOutput.text, standardError.text)
    }

    static func resolve(_ program: String, path: String) throws(Failure) -> String {
        func runnable(_ candidate: String) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory)
                && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: candidate)
        }
        if program.contains("/") {
            guard runnable(program) else { throw .notFound(program: program, reason: "not an executable file") }
            return program
        }
        for directory in path.split(separator: ":") where runnable("\(directory)/\(program)") {
            return "\(directory)/\(program)"
        }
        throw .notFound(program: program, reason: "no such program on PATH")
    }
}
