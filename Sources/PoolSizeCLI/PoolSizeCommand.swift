import ArgumentParser
import Foundation
import PoolSize
import PoolSizeModel

/// `poolsize`: how many queues should this pool have? Subcommands measure and model it.
package struct PoolSizeCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "poolsize",
        abstract: "Measure how many queues (threads) a worker pool should have.",
        discussion:
            "Exit codes: 0 ok, 2 regression, 3 runs not comparable or --resume of another plan, 4 integrity violated, 5 measurement failed, 6–9 observe measured only in part (the target exited, syscalls unreadable, another user, no schedstat), 64 bad option, 65 bad input file, 66 input not found, 69 observe on a system without /proc, 73 cannot write output or --out holds a run or other files, 75 run directory locked by another sweep, 130 interrupted (finished trials are kept).",
        version: PoolSizeVersion.string,
        subcommands: [
            SweepCommand.self, ServeCommand.self, ExportCommand.self, ListCommand.self, FitCommand.self,
            ReportCommand.self, PlotCommand.self, PlanCommand.self, CompareCommand.self, CalibrateCommand.self,
            BenchHarnessCommand.self, BenchDriverCommand.self, ProbeCommand.self, ObserveCommand.self,
            ChildCommand.self,
        ],
        defaultSubcommand: nil)

    package init() {}

    /// Parses, runs, and turns every failure into one line on stderr and a distinct exit code
    /// (docs/conventions.md): no stack traces, and ArgumentParser's usage block is replaced by a pointer
    /// to `--help` so the error stays on one line. `printError` escapes the values quoted in it
    /// (a path, a cell, a command's stderr) for the terminal, so none can break the line or send
    /// the terminal a sequence.
    package static func runMain(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()), errorOutput: (String) -> Void = printError
    ) -> Int32 {
        do {
            var command = try parse(arguments)
            try command.run()
            return 0
        } catch let error as PoolSizeError {
            InterruptNotice.waitIfExiting()
            error.lines.map(ParameterFlags.word).forEach(errorOutput)
            return error.exitCode
        } catch {
            InterruptNotice.waitIfExiting()
            let code = exitCode(for: error)
            if code == .success {
                let message = fullMessage(for: error)
                // --version (after any subcommand) names the commit too; ArgumentParser's message
                // is the version alone.
                print(message == PoolSizeVersion.string ? PoolSizeVersion.line : message)
                return 0
            }
            errorOutput(oneLineMessage(for: error, arguments: arguments))
            return code.rawValue
        }
    }

    /// Parses; when that fails and an option's value is a negative number (`--wait -1ms`), which
    /// ArgumentParser reads as another option and reports as "Missing value", parses again with
    /// the value joined to its option (`--wait=-1ms`), so the option's own check can say what is
    /// wrong with the number.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        do {
            return try parseAsRoot(arguments)
        } catch {
            var joined: [String] = []
            for argument in arguments {
                if let last = joined.last, last.hasPrefix("--"), !last.contains("="), argument.count > 1,
                    argument.hasPrefix("-"),
                    let next = argument.dropFirst().first, next.isNumber || next == "."
                {
                    joined[joined.count - 1] = last + "=" + argument
                } else {
                    joined.append(argument)
                }
            }
            guard joined != arguments else { throw error }
            return try parseAsRoot(joined)
        }
    }

    /// ArgumentParser's message for a parse error, cut to its first line, with a pointer to
    /// the subcommand's help.
    static func oneLineMessage(for error: any Error, arguments: [String]) -> String {
        let message = self.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
        let subcommand =
            arguments.first.flatMap { first in
                configuration.subcommands.contains { $0.configuration.commandName == first } ? first + " " : nil
            } ?? ""
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        return "error: \(text) (see 'poolsize \(subcommand)--help')"
    }

    /// One line on stderr, escaped for the terminal (`TerminalText`), each setting a library
    /// text mentions written as its flag (`ParameterFlags`).
    package static func printError(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.escape(ParameterFlags.word(line)) + "\n").utf8))
    }
}
