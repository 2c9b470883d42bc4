import Foundation
import PoolSizeModel
import PoolSizeProcess

/// `observe --counter CMD`: a command that prints a running total of the tasks a pool has
/// finished (a server's request count, a database's committed transactions), run as the
/// observation starts and as it ends; the difference over the time between is the task rate
/// λ for Little's law, as `--throughput` would give it. Run through the one child-process
/// runner: an argument vector and no shell, stdin from /dev/null, stopped after
/// `timeoutSeconds`.
package struct TaskCounter: Sendable {
    /// A counter that has not printed within this long is stopped and the read fails.
    package static let timeoutSeconds = 10.0

    /// The command's words; the first is the program.
    package let arguments: [String]
    /// The program, resolved on PATH.
    package let executable: String
    /// The command as the user typed it, for messages and the report.
    package let text: String

    /// Why a read gave no total.
    package enum Failure: Error, Equatable, Sendable {
        /// The program is not on PATH or not executable.
        case notFound(program: String, reason: String)
        /// It did not exit 0 in time: its outcome and its first line on stderr.
        case failed(outcome: ChildOutcome, standardError: String)
        /// It printed something other than one number.
        case notANumber(output: String)
        /// The total went down between the reads (the counter restarted).
        case wentDown(first: Double, last: Double)
    }

    /// A counter running `arguments`; throws when the program cannot be found.
    package init(
        arguments: [String], text: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) {
        guard let program = arguments.first else { throw .notFound(program: "", reason: "the command is empty") }
        do {
            executable = try ChildTarget.resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        } catch {
            switch error {
            case let .notFound(program, reason), let .cannotStart(program, reason):
                throw .notFound(program: program, reason: reason)
            }
        }
        self.arguments = arguments
        self.text = text
    }

    /// Runs the command once: the total it printed, and when (CLOCK_BOOTTIME, the middle of
    /// its run).
    package func read() -> Result<(total: Double, timeSeconds: Double), Failure> {
        let before = ObserverClock.bootSeconds()
        let run = ChildProcessRunner(timeoutSeconds: Self.timeoutSeconds).run(
            executable: URL(fileURLWithPath: executable), arguments: Array(arguments.dropFirst()))
        let after = ObserverClock.bootSeconds()
        guard run.outcome == .exited(code: 0) else {
            let line = run.standardError.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return .failure(.failed(outcome: run.outcome, standardError: line))
        }
        let output = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let total = FiniteNumber.quantity(output) else { return .failure(.notANumber(output: output)) }
        return .success((total, (before + after) / 2))
    }

    /// The count between two reads; one that went down is counted too (`wentDown`), so the
    /// observation keeps what was read, and the caller refuses its rate.
    package func count(
        from first: (total: Double, timeSeconds: Double), to last: (total: Double, timeSeconds: Double)
    ) -> TaskCount {
        TaskCount(command: text, first: first.total, last: last.total, seconds: last.timeSeconds - first.timeSeconds)
    }
}
