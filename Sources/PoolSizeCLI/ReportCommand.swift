import ArgumentParser
import Foundation
import PoolSizeModel
import PoolSizeOutput

/// `poolsize report RUN_DIR`: parse → load the run's CSV and JSON → write charts, report.md and
/// report.html. Charts are optional here as in `sweep`: without gnuplot the report, data and
/// scripts are still written, and one line on stderr says how to render them later.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Regenerate report.md, report.html and the charts of a run directory from its files.",
        discussion: "Reads trials.csv (required), machine.json, lowload.json, recommendation.json and contention.csv (when present). Writes report.md and report.html into RUN_DIR and the gnuplot data, scripts, SVG and PNG into the plots directory. Prints the path of report.md.")

    @OptionGroup var options: RunDirectoryOptions

    func run() throws {
        let outcome = try Self.write(runDirectory: options.directory, plots: options.plots)
        print(outcome.markdown.path)
    }

    /// Loads a run and writes its report and charts; prints the one chart message, if any, to
    /// stderr. Shared with `sweep`, which calls it on the directory it has just written.
    static func write(runDirectory: URL, plots: String?, renderer: any ChartRenderer = GnuplotRenderer()) throws(PoolSizeError) -> ReportWriter.ReportOutcome {
        let run = try RunDirectory(runDirectory).load()
        run.warnings.forEach(PoolSizeCommand.printError)
        let writer = ReportWriter(runDirectory: runDirectory, plotsDirectory: plotsDirectory(plots, runID: run.runID), renderer: renderer)
        let outcome = try writer.writeReport(RunAnalysis(run))
        if let message = outcome.charts.message { PoolSizeCommand.printError(message) }
        return outcome
    }

    /// `--plots DIR`, or `plots/<run-id>` relative to the working directory (as `results/<run-id>`).
    /// The run id is read from the run's files, which may come from someone else: it names one
    /// folder under plots/ and nothing else, so `/`, `..` and control characters cannot steer
    /// the charts elsewhere.
    static func plotsDirectory(_ option: String?, runID: String) -> URL {
        if let option { return URL(fileURLWithPath: option) }
        var folder = String(runID.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        if folder.isEmpty || folder.hasPrefix(".") { folder = "_" + folder }
        return URL(fileURLWithPath: "plots/" + folder)
    }
}
