import Foundation
import PoolSizeModel
import PoolSizeProcess

/// Runs the built binary through `ChildProcessRunner`: the exit is taken with waitpid on the child
/// itself, under a watchdog. Foundation's `Process.waitUntilExit` hung for good once in a run of
/// many concurrent launches, its child long exited (a zombie nobody reaped), and the suite ran
/// until CI's limit.
enum BinaryRun {
    struct Result {
        /// The exit status, or the signal's number when a signal ended the child (as
        /// `Process.terminationStatus` gives it); SIGKILL after the watchdog.
        var code: Int32
        var stdout: String
        var stderr: String
        var outcome: ChildOutcome
        var signaled: Bool {
            switch outcome {
            case .signaled, .timedOut: true
            case .exited, .failedToStart: false
            }
        }
    }

    /// Runs `executable` (the binary by default); `environment` defaults to this process's and
    /// `directory` to this process's working directory.
    static func run(
        _ arguments: [String], executable: URL = EndToEndTests.binary, environment: [String: String]? = nil,
        directory: URL? = nil, timeout: Double = 600
    ) throws -> Result {
        var program = executable
        var argv = arguments
        if let directory {
            // The runner has no working-directory setting: a shell changes it and execs the binary.
            program = URL(fileURLWithPath: "/bin/sh")
            argv =
                ["-c", "cd \"$1\" || exit 97; shift; exec \"$@\"", "sh", directory.path, executable.path] + arguments
        }
        let run = ChildProcessRunner(timeoutSeconds: timeout).run(
            executable: program, arguments: argv, environment: environment)
        let code: Int32
        switch run.outcome {
        case .exited(let status): code = status
        case .signaled(let signal): code = signal
        case .timedOut: code = SIGKILL
        case .failedToStart(let reason):
            throw NSError(
                domain: "BinaryRun", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(program.path): \(reason)"])
        }
        return Result(code: code, stdout: run.standardOutput, stderr: run.standardError, outcome: run.outcome)
    }
}

extension Process {
    /// How a child ended: its exit status, or the signal's number when a signal ended it.
    struct Exit {
        var code: Int32
        var signaled: Bool
    }

    /// Waits for the child to end, in place of `waitUntilExit`, which once waited for good on a
    /// child long exited (`BinaryRun`): a child that has been a zombie for a second without
    /// Foundation noticing is reaped here and its status decoded. SIGKILL past `timeout`.
    @discardableResult
    func awaitExit(timeout: Double = 600) -> Exit {
        let pid = processIdentifier
        let deadline = Date().addingTimeInterval(timeout)
        var zombieSince: Date?
        while true {
            if !isRunning { return Exit(code: terminationStatus, signaled: terminationReason == .uncaughtSignal) }
            if Date() > deadline { kill(pid, SIGKILL) }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let state = stat.range(of: ") ", options: .backwards).map { stat[$0.upperBound...].prefix(1) }
            if state == "Z" {
                let since = zombieSince ?? Date()
                zombieSince = since
                var status: Int32 = 0
                if Date().timeIntervalSince(since) > 1, waitpid(pid, &status, WNOHANG) == pid {
                    let signal = status & 0x7f
                    return Exit(code: signal != 0 ? signal : (status >> 8) & 0xff, signaled: signal != 0)
                }
            }
            usleep(10_000)
        }
    }
}
