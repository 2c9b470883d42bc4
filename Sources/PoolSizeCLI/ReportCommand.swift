import ArgumentParser
import Foundation
import PoolSizeModel
import PoolSizeOutput

/// `poolsize report RUN_DIR…`: parse → load the runs' CSV and JSON → write charts, report.md and
/// report.html. One run directory: its own report, written into it (as `sweep` does). Several
/// (one per machine): one report side by side into `--out DIR`. Charts are optional here as in
/// `sweep`: without gnuplot the report, data and scripts are still written, and one line on
/// stderr says how to render them later.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Regenerate the report of a run directory, or put several machines' runs side by side.",
        discussion: """
            One RUN_DIR: reads trials.csv (required), machine.json, lowload.json, recommendation.json and contention.csv \
            (when present); writes report.md and report.html into RUN_DIR and the gnuplot data, scripts, SVG and PNG into \
            the plots directory. Several RUN_DIRs (the same workload swept on different machines): writes one report.md, \
            report.html and a chart with one line per machine into --out DIR, and says for each machine whether \
            cores × (1 + W/C) explains its recommendation relative to the first. Runs of different workloads are refused \
            (exit 3) unless --allow-mixed. Prints the path of report.md.
            """)

    @Argument(
        help: ArgumentHelp(
            "Run directories written by 'poolsize sweep' (results/<run-id>); several for a side-by-side report.",
            valueName: "run-dir"), completion: .directory)
    var runDirectories: [String] = []

    @Option(
        help: ArgumentHelp(
            "One run: directory for the charts' data, gnuplot scripts, SVG and PNG (default: plots/<run-id>).",
            valueName: "dir"), completion: .directory)
    var plots: String?

    @Option(
        help: ArgumentHelp(
            "Several runs: directory for the side-by-side report.md, report.html and chart (required with several).",
            valueName: "dir"), completion: .directory)
    var out: String?

    @Flag(
        name: .customLong("allow-mixed"),
        help: "Several runs: put runs of different workloads side by side instead of refusing them.")
    var allowMixed = false

    /// Checks the combination of arguments before anything is read or written.
    @discardableResult
    func plan() throws(PoolSizeError) -> URL? {
        guard !runDirectories.isEmpty else {
            throw .invalidOption(
                flag: "RUN_DIR",
                message:
                    "missing; give a run directory written by 'poolsize sweep' (results/<run-id>), or several with --out DIR"
            )
        }
        if runDirectories.count == 1 {
            if out != nil {
                throw .invalidOption(
                    flag: "--out",
                    message:
                        "is for several run directories; a single run's report is written into the run directory itself"
                )
            }
            if allowMixed {
                throw .invalidOption(
                    flag: "--allow-mixed", message: "is for several run directories; drop it for a single run")
            }
            return nil
        }
        if plots != nil {
            throw .invalidOption(
                flag: "--plots",
                message: "applies to a single run directory; with several, the chart is written into --out DIR")
        }
        guard let out, !out.isEmpty else {
            throw .invalidOption(
                flag: "--out",
                message:
                    "is required with several run directories; name a directory for the side-by-side report, e.g. --out machines"
            )
        }
        return URL(fileURLWithPath: out)
    }

    func run() throws {
        if let out = try plan() {
            let outcome = try Self.writeMachines(
                runDirectories.map { URL(fileURLWithPath: $0) }, out: out, allowMixed: allowMixed)
            print(outcome.markdown.path)
        } else {
            let report = try ReportWriter.writeRunReport(
                runDirectory: URL(fileURLWithPath: runDirectories[0]), plots: plots, wording: ParameterFlags.word)
            report.notices.forEach(PoolSizeCommand.printError)
            print(report.outcome.markdown.path)
        }
    }

    /// Loads every run, refuses mixed workloads unless allowed, and writes the side-by-side report.
    static func writeMachines(
        _ directories: [URL], out: URL, allowMixed: Bool, renderer: any ChartRenderer = GnuplotRenderer()
    ) throws(PoolSizeError) -> ReportWriter.ReportOutcome {
        var analyses: [RunAnalysis] = []
        for directory in directories {
            let run = try RunDirectory(directory).load()
            run.warnings.forEach(PoolSizeCommand.printError)
            let analysis = RunAnalysis(run)
            // The side-by-side report sets throughput curves and the formula against each other;
            // an open loop has neither (it is sized for a latency objective at a rate).
            if case .open = analysis.loop {
                throw .incomparable(
                    details:
                        "\(directory.lastPathComponent) is an open-loop run (--arrival-rate), and the side-by-side report compares closed-loop throughput curves; report each open-loop run alone ('poolsize report DIR') or set two of them side by side with 'poolsize compare BASE CURRENT'"
                )
            }
            analyses.append(analysis)
        }
        let comparison = MachineComparison(analyses)
        let workloads = comparison.workloads
        if workloads.count > 1 && !allowMixed {
            let which = zip(directories, comparison.machines).map { "\($0.0.lastPathComponent): \($0.1.workload)" }
                .joined(separator: ", ")
            throw .incomparable(
                details:
                    "the runs are of different workloads (\(which)); sweep the same workload on each machine, or pass --allow-mixed to put them side by side anyway"
            )
        }
        let writer = ReportWriter(runDirectory: out, plotsDirectory: out, renderer: renderer)
        let outcome = try writer.writeMachinesReport(comparison)
        if let message = outcome.charts.message { PoolSizeCommand.printError(message) }
        return outcome
    }
}
