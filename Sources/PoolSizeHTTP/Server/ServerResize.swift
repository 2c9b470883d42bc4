import Foundation
import PoolSizeModel
import PoolSizeProcess

/// What sets a running server's pool size instead of a restart (`resize`), and how long the
/// server is given after it before it is measured: the user's command, run to its end under the
/// one child-process runner (`ChildProcessRunner`), or SIGTTIN and SIGTTOU sent to the server's
/// process one at a time, each followed until its count of child processes has moved (gunicorn's
/// arbiter and Puma's cluster master add and retire a worker per signal), so the size is read
/// back from /proc before the server is measured.
package struct ServerResize: Sendable {
    /// How the size is set.
    package enum Method: Sendable, Equatable {
        /// The user's command, its `{size}`, `{pid}` and `{port}` filled in for each size.
        case command(ServerCommand)
        /// SIGTTIN adds a worker, SIGTTOU retires one; the workers are the process's children.
        case signals
    }

    /// How the size is set.
    package let method: Method
    /// How long the server is left after the resize before it is probed.
    package let settleSeconds: Double

    /// A resize by `method`, the server then left `settleSeconds`.
    package init(_ method: Method, settleSeconds: Double) {
        self.method = method
        self.settleSeconds = settleSeconds
    }

    /// How long a resize command may run, and the signals their whole resize.
    static let timeoutSeconds = 60.0
    /// How long one signal's worker may take to appear or go.
    static let signalSeconds = 15.0

    /// Leaves a server just resized `settleSeconds`, then waits until it answers again and its
    /// session has settled (a worker it added up and idle).
    func settle(_ server: RunningServer, readyTimeoutSeconds: Double) throws(PoolSizeError) {
        Thread.sleep(forTimeInterval: settleSeconds)
        try server.process.waitUntilReady(timeoutSeconds: readyTimeoutSeconds) {
            (try? HTTPReadinessProbe(target: server.target).check()) ?? (false, "no probe")
        }
        ServerLifecycle.waitUntilSettled(server.process, readyTimeoutSeconds: readyTimeoutSeconds)
    }

    /// Sets `server` to `size`; throws naming the setting when it cannot, with how the command
    /// ended and its last lines, or how many workers the signals left.
    func run(size: Int, on server: RunningServer) throws(PoolSizeError) {
        switch method {
        case let .command(command): try run(command, size: size, on: server)
        case .signals: try signal(size: size, pid: server.process.pid)
        }
    }

    /// Runs the command for `size` against `server`. A program that cannot be started is worded
    /// as a server's command is (`ServerProcess`).
    func run(_ command: ServerCommand, size: Int, on server: RunningServer) throws(PoolSizeError) {
        let arguments = command.arguments(size: size, pid: server.process.pid, port: server.port)
        guard let program = arguments.first else {
            throw .invalidParameter(.server, message: "is empty; give the command that starts the server")
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let executable = try ServerProcess.resolve(program, path: path)
        let run = ChildProcessRunner(timeoutSeconds: Self.timeoutSeconds).run(
            executable: URL(fileURLWithPath: executable), arguments: Array(arguments.dropFirst()))
        let how: String
        switch run.outcome {
        case .exited(code: 0): return
        case .timedOut: how = "did not finish within \(UnitFormat.duration(Self.timeoutSeconds))"
        case let .failedToStart(reason) where reason == ChildProcessRunner.interrupted:
            throw .invalidParameter(.server, message: "not started: poolsize is stopping")
        case let .failedToStart(reason):
            // The runner names the executable before the errno's text; the message names the program.
            let why = reason.hasPrefix(executable + ": ") ? String(reason.dropFirst(executable.count + 2)) : reason
            throw .invalidParameter(.server, message: "cannot start '\(TerminalText.escape(program))': \(why)")
        default: how = run.outcome.summary
        }
        let lastLines = OutputExcerpt.lastLines([("stderr", run.standardError), ("stdout", run.standardOutput)])
        throw .invalidParameter(
            .resize, message: "\(how) setting the size to \(size); \(lastLines); fix the command or drop it")
    }

    /// Sends `pid` one SIGTTIN or SIGTTOU at a time until it has `size` children, each signal
    /// followed until the count has moved (a second signal sent before the first is handled
    /// would merge with it). A process without handlers for both is refused before any signal:
    /// their default action would stop it.
    func signal(size: Int, pid: Int32) throws(PoolSizeError) {
        guard ProcReader.catches(SIGTTIN, pid: pid) == true, ProcReader.catches(SIGTTOU, pid: pid) == true else {
            throw .invalidParameter(
                .resize,
                message:
                    "signals sends SIGTTIN and SIGTTOU, and the server's process \(pid) has no handler for them (/proc/\(pid)/status SigCgt); they resize gunicorn's arbiter and Puma's cluster master started as the server's command itself: give your own resize command"
            )
        }
        var have = ProcReader.taskChildren(of: pid).count
        let deadline = Date().addingTimeInterval(Self.timeoutSeconds)
        while have != size {
            let adding = have < size
            guard kill(pid, adding ? SIGTTIN : SIGTTOU) == 0, Date() < deadline else { break }
            let sent = Date()
            var now = have
            while now == have, Date().timeIntervalSince(sent) < Self.signalSeconds {
                Thread.sleep(forTimeInterval: 0.01)
                now = ProcReader.taskChildren(of: pid).count
            }
            guard now != have else {
                throw .invalidParameter(
                    .resize,
                    message:
                        "the server's process \(pid) still had \(have) worker\(have == 1 ? "" : "s") \(UnitFormat.duration(Self.signalSeconds)) after \(adding ? "SIGTTIN" : "SIGTTOU") on the way to \(size); is it gunicorn's arbiter or Puma's cluster master, sized in worker processes, not threads?"
                )
            }
            have = now
        }
        guard have == size else {
            throw .invalidParameter(
                .resize,
                message:
                    "the server's process \(pid) has \(have) worker\(have == 1 ? "" : "s"), not \(size), after \(UnitFormat.duration(Self.timeoutSeconds)) of signals"
            )
        }
    }
}
