import ArgumentParser
import Foundation
import PoolSizeModel
import PoolSizeOutput

/// `poolsize plot RUN_DIR`: only the charts. Unlike `sweep` and `report`, rendering is this
/// command's whole job, so a missing gnuplot is an error: exit 66 (`inputNotFound`, the program
/// it needs is not there) and a gnuplot that rejects a script exit 65 (`invalidInput`, naming
/// the script). The data files and scripts are written first either way.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Regenerate a run directory's charts (gnuplot data, scripts, SVG and PNG) from its files.",
        discussion:
            "Exits 66 when gnuplot is not installed and 65 when it fails on a script; the .dat and .gp files are written either way. Prints the plots directory."
    )

    @OptionGroup var options: RunDirectoryOptions

    func run() throws {
        let directory = options.directory
        if RunDirectory(directory).holdsObservation {
            let run = try RunDirectory(directory).loadObservation()
            let plotsDirectory = ReportWriter.plotsDirectory(options.plots, runID: run.runID)
            let writer = ReportWriter(runDirectory: directory, plotsDirectory: plotsDirectory)
            let outcome = try writer.writeObservationCharts(run)
            if let failure = outcome.failure {
                throw Self.error(
                    failure, plots: RelativePath.display(plotsDirectory), run: RelativePath.display(directory))
            }
            print(plotsDirectory.path)
            return
        }
        let data = try RunDirectory(directory).load()
        data.warnings.forEach(PoolSizeCommand.printError)
        let plotsDirectory = ReportWriter.plotsDirectory(options.plots, runID: data.runID)
        let outcome = try ReportWriter(runDirectory: directory, plotsDirectory: plotsDirectory).writeCharts(
            RunAnalysis(data))
        if let failure = outcome.failure {
            throw Self.error(failure, plots: RelativePath.display(plotsDirectory), run: RelativePath.display(directory))
        }
        print(plotsDirectory.path)
    }

    static func error(_ failure: ChartRenderFailure, plots: String, run: String) -> PoolSizeError {
        switch failure {
        case .notInstalled:
            return .inputNotFound(
                path: "gnuplot",
                hint:
                    "install it (apt-get install --no-install-recommends gnuplot-nox) and re-run 'poolsize plot \(run)'; the data and scripts are in \(plots)/ ('gnuplot \(plots)/*.gp' renders them)"
            )
        case let .failed(script, message):
            return .invalidInput(
                path: script,
                message:
                    "gnuplot could not render it: \(message); gnuplot 5.4 or newer with the pngcairo terminal is needed (apt-get install --no-install-recommends gnuplot-nox)"
            )
        case let .timedOut(script, seconds):
            return .invalidInput(
                path: script, message: "gnuplot did not finish within \(Int(seconds)) s and was stopped")
        }
    }
}
