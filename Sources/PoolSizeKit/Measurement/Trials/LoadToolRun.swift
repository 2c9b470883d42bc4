import Foundation
import PoolSizeModel
import PoolSizeProcess

/// One run of the user's load tool (`LoadToolMeasurer`): how it ended, what it printed, the
/// figures read from that, and the trial's metrics.
package struct LoadToolRun: Equatable, Sendable {
    /// The argument vector run, placeholders filled in.
    package var arguments: [String]
    /// How the tool ended.
    package var outcome: ChildOutcome
    /// From its start to its exit.
    package var wallSeconds: Double
    /// CPU time (user + system) of the tool and of the processes it waited for, from its
    /// rusage. Here only: no field of the trial's metrics holds it, since a record's CPU
    /// figures are the pool's, and the tool is the load, not the pool.
    package var toolCPUSeconds: Double
    /// The busiest thread of the tool (and of the processes it started): the time it was on a
    /// CPU or waiting for one over the tool's wall time, so 1 is a thread that never waited for
    /// the server; nil when not watched.
    package var busiestThreadShare: Double?
    /// What it printed on stdout.
    package var standardOutput: String
    /// What it printed on stderr.
    package var standardError: String
    /// The figures read from that; nil when none could be (`invalidReason` says why).
    package var figures: LoadToolFigures?
    /// Why the trial is invalid, in one line: how the tool ended when not with status 0, or
    /// why its output gave no figures; and its last lines. Nil for a valid trial.
    package var invalidReason: String?
    /// A trial valid but read with a choice made: the tool printed several different
    /// throughputs and the last was taken. Nil otherwise.
    package var note: String?

    /// Share of the run the tool's busiest thread may be busy (on a CPU or waiting for one)
    /// before the trial says the tool was the limit, as the built-in driver's rule says of its
    /// own thread.
    package static let busyThreadLimit = 0.9

    /// The tool as a trial's reason names it: its program's file name, escaped.
    package var toolName: String { Self.toolName(arguments) }

    /// The program's file name in `arguments`, escaped for a terminal.
    static func toolName(_ arguments: [String]) -> String {
        TerminalText.escape(URL(fileURLWithPath: arguments.first ?? "").lastPathComponent)
    }

    /// The lines of a tool's output an invalid trial's reason shows, and their longest.
    static let shownLines = 3, shownCharacters = 200

    /// The run of `arguments` that `child` reports, its output read by `parser`.
    package init(arguments: [String], child: ChildRun, parser: LoadToolParser) {
        self.arguments = arguments
        outcome = child.outcome
        wallSeconds = child.seconds
        toolCPUSeconds = child.cpuSeconds
        busiestThreadShare = child.busiestThreadSeconds.map { child.seconds > 0 ? min(1, $0 / child.seconds) : 0 }
        standardOutput = child.standardOutput
        standardError = child.standardError
        let name = Self.toolName(arguments)
        var unreadable: LoadToolParser.Unreadable?
        do {
            figures = try parser.parse(standardOutput: child.standardOutput, standardError: child.standardError)
        } catch {
            unreadable = error
        }
        func last(_ streams: [(name: String, text: String)]) -> String {
            OutputExcerpt.lastLines(streams, count: Self.shownLines, characters: Self.shownCharacters)
        }
        let out = ("stdout", child.standardOutput), err = ("stderr", child.standardError)
        // A tool that failed says why on stderr; one that printed no figures shows what it
        // printed instead on stdout.
        if child.outcome != .exited(code: 0) {
            invalidReason = "\(name): \(child.outcome.summary); \(last([err, out]))"
        } else if let unreadable {
            invalidReason = "\(name): \(unreadable); \(last([out, err]))"
        } else if let said = figures?.saidBound {
            invalidReason =
                "\(name): load-generator-bound: the tool said so ('\(TerminalText.excerpt(said, limit: 120))'), so the tool, not the server, may have been the limit; give it more workers, cores, or another host"
        } else if let share = busiestThreadShare, share > Self.busyThreadLimit {
            invalidReason =
                "\(name): load-generator-bound: its busiest thread was busy (on a CPU or waiting for one) \(UnitFormat.percent(share)) of the run, never waiting for the server, so the tool, not the server, may have been the limit; give it more threads (wrk -t, pgbench -j), cores, or another host"
        } else if let figures, figures.throughputsPrinted > 1 {
            note =
                "\(name) printed \(figures.throughputsPrinted) different throughputs; the last, "
                + "\(UnitFormat.rate(figures.throughputPerSecond)), was taken"
        }
    }

    /// The trial's metrics: the tool's throughput, latency percentiles and errors over the
    /// window it printed (`duration`), else its wall time; `invalidReason` as the run's. What
    /// only a pool in this process has (C and W per task, utilization, concurrency, threads,
    /// per-task samples) is 0 or empty: not measured. The tool's mean latency has no field
    /// there; it is in `figures`.
    package var metrics: TrialMetrics {
        let window = figures?.durationSeconds.flatMap { $0 > 0 ? $0 : nil } ?? wallSeconds
        var metrics = TrialMetrics(
            windowSeconds: window, throughputPerSecond: figures?.throughputPerSecond ?? 0, cpuMicrosecondsPerTask: 0,
            waitMicrosecondsPerTask: 0, utilization: 0, peakConcurrency: 0, threads: 0,
            latency: figures?.latency ?? LatencyPercentiles())
        metrics.errors = figures?.errors ?? 0
        metrics.invalidReason = invalidReason
        metrics.notes = note.map { [$0] } ?? []
        metrics.perTaskWaitCPURatios = []
        metrics.perTaskWaitMicroseconds = []
        metrics.perTaskCPUMicroseconds = []
        return metrics
    }
}
