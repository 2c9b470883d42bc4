import Foundation
import PoolSizeModel
import PoolSizeProcess

/// The command that sets a running server's pool size instead of a restart (`resize`), and how
/// long the server is given after it before it is measured. The command runs to its end under
/// the one child-process runner (`ChildProcessRunner`), which waits on its exit.
struct ServerResize {
    /// The command, its `{size}`, `{pid}` and `{port}` filled in for each size.
    let command: ServerCommand
    /// How long the server is left after the command before it is probed.
    let settleSeconds: Double

    /// How long a resize command may run.
    static let timeoutSeconds = 60.0

    /// Leaves a server just resized `settleSeconds`, then waits until it answers again and its
    /// session has settled (a worker it added up and idle).
    func settle(_ server: RunningServer, readyTimeoutSeconds: Double) throws(PoolSizeError) {
        Thread.sleep(forTimeInterval: settleSeconds)
        try server.process.waitUntilReady(timeoutSeconds: readyTimeoutSeconds) {
            (try? HTTPReadinessProbe(target: server.target).check()) ?? (false, "no probe")
        }
        ServerLifecycle.waitUntilSettled(server.process, readyTimeoutSeconds: readyTimeoutSeconds)
    }

    /// Runs the command for `size` against `server`; throws naming the setting when it fails,
    /// with how it ended and its last lines. A program that cannot be started is worded as a
    /// server's command is (`ServerProcess`).
    func run(size: Int, on server: RunningServer) throws(PoolSizeError) {
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
}
