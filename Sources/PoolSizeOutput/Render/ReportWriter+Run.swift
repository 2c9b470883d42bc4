import Foundation
import PoolSizeModel

extension ReportWriter {
    /// A run's report as `report RUN_DIR` and the end of `sweep` write it, and the lines to tell
    /// the user on stderr (a cut last row, charts left unrendered).
    package struct RunReport: Sendable {
        package var outcome: ReportOutcome
        package var notices: [String]
    }

    /// Loads the run in `runDirectory` (a sweep's, or an observation's) and writes its charts
    /// (into `plots`, or `plots/<run-id>`), report.md and report.html; `wording` as
    /// `ReportWriter.wording`.
    package static func writeRunReport(
        runDirectory: URL, plots: String?, renderer: any ChartRenderer = GnuplotRenderer(),
        wording: @escaping (String) -> String = { $0 }
    ) throws(PoolSizeError) -> RunReport {
        if RunDirectory(runDirectory).holdsObservation {
            let observation = try RunDirectory(runDirectory).loadObservation()
            let charts = plotsDirectory(plots, runID: observation.runID)
            var writer = ReportWriter(runDirectory: runDirectory, plotsDirectory: charts, renderer: renderer)
            writer.wording = wording
            let outcome = try writer.writeObservationReport(observation)
            return RunReport(outcome: outcome, notices: [outcome.charts.message].compactMap { $0 })
        }
        let run = try RunDirectory(runDirectory).load()
        let writer = ReportWriter(
            runDirectory: runDirectory, plotsDirectory: plotsDirectory(plots, runID: run.runID), renderer: renderer)
        let outcome = try writer.writeReport(RunAnalysis(run))
        return RunReport(outcome: outcome, notices: run.warnings + [outcome.charts.message].compactMap { $0 })
    }

    /// `--plots DIR`, or `plots/<run-id>` relative to the working directory (as `results/<run-id>`).
    /// The run id is read from the run's files, which may come from someone else: it names one
    /// folder under plots/ and nothing else, so `/`, `..` and control characters cannot steer
    /// the charts elsewhere.
    package static func plotsDirectory(_ option: String?, runID: String) -> URL {
        if let option { return URL(fileURLWithPath: option) }
        var folder = String(runID.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        if folder.isEmpty || folder.hasPrefix(".") { folder = "_" + folder }
        return URL(fileURLWithPath: "plots/" + folder)
    }
}
