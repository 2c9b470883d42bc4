import Foundation
import PoolSize
import PoolSizeKit
import PoolSizeModel
import PoolSizeObserve
import PoolSizeOutput

/// `observe --out`, `--plots`, `--force` and `--counter`: checked before anything is observed,
/// used after.
extension ObserveCommand {
    /// A running process's target is checked (there, not a zombie, not a kernel thread) before
    /// `--out` is made, so a refused target leaves no directory behind; then `output`.
    func checkedOutput(target: ObserveTarget) throws(PoolSizeError) -> Output? {
        if case let .process(pid) = target {
            do {
                try TargetProbe.check(pid: pid)
            } catch {
                throw Self.error(ObservationSession.Failure(error))
            }
        }
        return try output(target: target)
    }

    /// `--out` and `--plots`, checked: the places must be writable and `--out` must not hold
    /// a run unless `--force`; nil without `--out`.
    func output(target: ObserveTarget) throws(PoolSizeError) -> Output? {
        guard let out else {
            if plots != nil {
                throw .invalidOption(
                    flag: "--plots", message: "places the charts of --out's run directory; give --out DIR too")
            }
            if force {
                throw .invalidOption(
                    flag: "--force", message: "replaces the run directory --out names; give --out DIR too")
            }
            return nil
        }
        guard !out.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidOption(
                flag: "--out", message: "is empty; name a directory, e.g. --out results/my-observation")
        }
        if let plots, plots.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidOption(
                flag: "--plots",
                message:
                    "is empty; name a directory, e.g. --plots plots/my-observation (or leave --plots out for "
                    + "plots/<run-id>)"
            )
        }
        let runID = RunID.make(workload: "observe-" + Self.programName(target))
        let directory = URL(fileURLWithPath: out)
        try RunDirectory(directory).prepareForObservation(replace: force)
        let plotsDirectory = ReportWriter.plotsDirectory(plots, runID: runID)
        try AtomicFile.checkWritable(plotsDirectory, flag: "--plots")
        return Output(directory: directory, plots: plotsDirectory, runID: runID)
    }

    /// The target's program for the run id: the command's, or the process's name (comm).
    static func programName(_ target: ObserveTarget) -> String {
        switch target {
        case let .command(arguments):
            return URL(fileURLWithPath: arguments.first ?? "command").lastPathComponent
        case let .process(pid):
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            return comm.flatMap { $0.isEmpty ? nil : $0 } ?? "pid\(pid)"
        }
    }

    /// `--counter`, split into words and its program found; nil without it.
    func taskCounter() throws(PoolSizeError) -> TaskCounter? {
        guard let counter else { return nil }
        // An empty command is refused there, with a counter's example.
        let words = try ShellWords.split(counter, parameter: .counterCommand)
        do {
            return try TaskCounter(arguments: words, text: counter)
        } catch {
            throw Self.counterError(error, when: "")
        }
    }

    /// Puts the rate `--counter` counted into `settings`. A count that did not move leaves the
    /// per-task figures out, with a note; a last read that failed is returned, to be raised
    /// once the figures are out.
    static func taskRate(
        _ count: Result<TaskCount, TaskCounter.Failure>?, into settings: inout EstimatorSettings
    ) -> Result<Void, PoolSizeError>? {
        switch count {
        case nil:
            return nil
        case let .failure(failure):
            return .failure(
                counterError(failure, when: "as the observation ended; the figures above have no per-task part"))
        case let .success(count):
            // Kept even when it went down: observation.json and the report say what was read.
            settings.counter = count
            if count.wentDown == true {
                return .failure(counterError(.wentDown(first: count.first, last: count.last), when: ""))
            }
            guard count.perSecond > 0 else {
                PoolSizeCommand.printError(
                    "note: --counter: the total stayed at \(UnitFormat.number(count.first)) over "
                        + "\(UnitFormat.duration(count.seconds)): no task was counted while observed, so there are no "
                        + "per-task figures"
                )
                return .success(())
            }
            settings.throughputPerSecond = count.perSecond
            return .success(())
        }
    }

    /// A counter's failure as one line naming `--counter` and the fix.
    static func counterError(_ failure: TaskCounter.Failure, when: String) -> PoolSizeError {
        let at = when.isEmpty ? "" : " " + when
        switch failure {
        case let .notFound(program, reason):
            return .inputNotFound(
                path: program,
                hint: "\(reason); --counter runs a program on PATH or at a path (write sh -c '…' for pipes)")
        case let .failed(outcome, standardError):
            let said = standardError.isEmpty ? "" : ": " + TerminalText.excerpt(standardError, limit: 120)
            return .invalidOption(
                flag: "--counter", message: "the command \(ended(outcome))\(at)\(said); run it by hand to see why")
        case let .notANumber(output):
            // Bytes that are not UTF-8 arrive as U+FFFD: the command printed something, not text.
            let shown =
                output.isEmpty
                ? "nothing"
                : output.contains("\u{FFFD}")
                    ? "something that is not text (bytes that are not UTF-8)"
                    : "'\(TerminalText.excerpt(output, limit: 80))'"
            return .invalidOption(
                flag: "--counter",
                message:
                    "the command printed \(shown)\(at), not one number; make it print only the running total (pipe "
                    + "through awk '{print $N}' inside sh -c '…')"
            )
        case let .wentDown(first, last):
            // Read only at the end: the figures are out, and observation.json keeps both totals.
            return .invalidOption(
                flag: "--counter",
                message:
                    "the total went down from \(UnitFormat.number(first)) to \(UnitFormat.number(last)) between its "
                    + "two reads: the counter restarted, so the figures above have no per-task part (the "
                    + "observation's settings.counter keeps both totals); observe again, or use --throughput R/s"
            )
        }
    }

    /// How a counter's run ended, in the words `sweep --exec` uses for a command's.
    static func ended(_ outcome: ChildOutcome) -> String {
        switch outcome {
        case let .exited(code): return "exited with status \(code)"
        case let .signaled(signal):
            return "was killed by signal \(signal) (\(ChildOutcome.signalName(signal)))"
        case let .timedOut(seconds):
            return "did not finish within \(UnitFormat.duration(seconds)) and was stopped"
        case let .failedToStart(reason): return "could not start (\(reason))"
        }
    }

    /// Writes the run directory and its report; prints where (the table's last line, as sweep
    /// does) and any note about the charts.
    func write(_ observation: Observation, to output: Output, interrupt: ObserveInterrupt) throws(PoolSizeError) {
        let info = RunInfo(
            .observation(runID: output.runID, seed: seed), poolsizeVersion: PoolSizeVersion.string,
            poolsizeCommit: PoolSizeVersion.commit,
            commandLine: Secrets.commandLine(CommandLine.arguments, flag: ParameterFlags.flag),
            machine: MachineProbe.facts())
        let run = ObservationRun(runID: output.runID, info: info, observation: observation)
        try RunDirectory(output.directory).save(run)
        // From here a signal stops gnuplot and says where the saved observation is.
        interrupt.rendering(output.directory.path)
        var writer = ReportWriter(runDirectory: output.directory, plotsDirectory: output.plots)
        writer.wording = ParameterFlags.word
        let outcome = try writer.writeObservationReport(run)
        interrupt.chartsDone()
        if let message = outcome.charts.message { PoolSizeCommand.printError(message) }
        if format != .json { say(output.directory.path) }
    }
}
