import Foundation
import PoolSizeModel

/// The one place that writes charts and reports to disk. Data files and scripts are always
/// written; rendering is attempted with the injected renderer, and a missing or failing gnuplot
/// becomes one message saying how to install it and how to render later, never a lost run.
package struct ReportWriter {
    package var runDirectory: URL
    package var plotsDirectory: URL
    package var renderer: any ChartRenderer
    /// For messages and the report's note: paths as the user would type them.
    package var currentDirectory: String
    /// How a library text a report quotes reads: as the library words it, or with each setting
    /// it mentions written as the command line's flag (the command line passes its wording).
    package var wording: (String) -> String = { $0 }

    package init(
        runDirectory: URL, plotsDirectory: URL, renderer: any ChartRenderer = GnuplotRenderer(),
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) {
        self.runDirectory = runDirectory
        self.plotsDirectory = plotsDirectory
        self.renderer = renderer
        self.currentDirectory = currentDirectory
    }

    /// What `writeCharts` did.
    package struct ChartOutcome: Equatable, Sendable {
        package var charts: [Chart]
        /// Stems of the charts whose SVG and PNG were rendered.
        package var rendered: [String]
        /// The first failure, when any chart was not rendered.
        package var failure: ChartRenderFailure?
        /// The one line to print when something was not rendered.
        package var message: String?

        package var allRendered: Bool { failure == nil }
    }

    /// Writes every chart's data and script into the plots directory, then renders them.
    package func writeCharts(_ analysis: RunAnalysis) throws(PoolSizeError) -> ChartOutcome {
        try writeCharts(ChartSet.charts(analysis))
    }

    /// Writes `charts`' data and scripts into the plots directory, then renders them.
    package func writeCharts(_ charts: [Chart]) throws(PoolSizeError) -> ChartOutcome {
        try createDirectory(plotsDirectory)
        for chart in charts {
            for data in chart.dataFiles { try write(data.text, to: plotsDirectory.appendingPathComponent(data.name)) }
            try write(chart.script, to: plotsDirectory.appendingPathComponent(chart.scriptFile))
        }
        var rendered: [String] = []
        var failure: ChartRenderFailure?
        for chart in charts {
            // Stale images from an earlier rendering would contradict the new data.
            for name in [chart.svgFile, chart.pngFile] {
                try? FileManager.default.removeItem(at: plotsDirectory.appendingPathComponent(name))
            }
            do {
                try renderer.render(script: plotsDirectory.appendingPathComponent(chart.scriptFile))
                rendered.append(chart.name)
            } catch {
                // A render that failed part-way (a full disk) leaves empty or cut images: remove
                // them, so no 0-byte chart is ever linked from a report.
                for name in [chart.svgFile, chart.pngFile] {
                    try? FileManager.default.removeItem(at: plotsDirectory.appendingPathComponent(name))
                }
                if failure == nil { failure = error }
                if case .failed = error { continue }
                break  // not installed or hanging: the rest would fail the same way
            }
        }
        let message = failure.map { renderMessage($0, failed: charts.count - rendered.count) }
        return ChartOutcome(charts: charts, rendered: rendered, failure: failure, message: message)
    }

    /// What `writeReport` did.
    package struct ReportOutcome: Equatable, Sendable {
        package var charts: ChartOutcome
        package var markdown: URL
        package var html: URL
    }

    /// Writes the charts, then `report.md` and `report.html` into the run directory.
    package func writeReport(_ analysis: RunAnalysis) throws(PoolSizeError) -> ReportOutcome {
        let charts = try writeCharts(analysis)
        let document = ReportBuilder.build(
            analysis, charts: charts.charts, chartsRendered: charts.allRendered,
            plotCommand: "poolsize plot \(display(runDirectory))")
        return try writeDocument(document, charts: charts)
    }

    /// Writes `document` as `report.md` and `report.html` into the run directory; the HTML inlines
    /// each chart's SVG from the plots directory, the Markdown links it.
    func writeDocument(_ document: ReportDocument, charts: ChartOutcome) throws(PoolSizeError) -> ReportOutcome {
        let relative = RelativePath.from(runDirectory, to: plotsDirectory, currentDirectory: currentDirectory)
        let markdown = RunDirectory(runDirectory).url(.reportMarkdown)
        try write(ReportMarkdown.render(document, chartDirectory: relative), to: markdown)
        let html = RunDirectory(runDirectory).url(.reportHTML)
        let page = ReportHTML.render(document) { name in
            try? String(contentsOf: plotsDirectory.appendingPathComponent(name + ".svg"), encoding: .utf8)
        }
        try write(page, to: html)
        return ReportOutcome(charts: charts, markdown: markdown, html: html)
    }

    /// One line: what was not rendered, how to install gnuplot, and how to render later.
    func renderMessage(_ failure: ChartRenderFailure, failed: Int) -> String {
        let later =
            "render later with 'gnuplot \(display(plotsDirectory))/*.gp' or 'poolsize plot \(display(runDirectory))'"
        switch failure {
        case .notInstalled:
            return
                "note: charts not rendered: gnuplot not found; install it (apt-get install --no-install-recommends gnuplot-nox) and \(later); the CSV, data and .gp files are written"
        case let .failed(script, message):
            let scriptName = URL(fileURLWithPath: script).lastPathComponent
            let others = failed > 1 ? " and \(failed - 1) more" : ""
            // Only a missing terminal is the installation's fault; any other error is the
            // script's or the machine's (a full disk), and the script is there to run by hand.
            let fix =
                message.contains("terminal")
                ? "install gnuplot 5.4+ with cairo (apt-get install --no-install-recommends gnuplot-nox) and \(later)"
                : "'gnuplot \(display(plotsDirectory))/\(scriptName)' shows the error; \(later)"
            return
                "warning: gnuplot could not render \(scriptName)\(others) (\(message)); \(fix); the CSV, data and .gp files are written"
        case let .timedOut(script, seconds):
            return
                "warning: gnuplot did not finish \(URL(fileURLWithPath: script).lastPathComponent) within \(Int(seconds)) s and was stopped; \(later); the CSV, data and .gp files are written"
        }
    }

    func display(_ url: URL) -> String { RelativePath.display(url, currentDirectory: currentDirectory) }

    func createDirectory(_ url: URL) throws(PoolSizeError) { try AtomicFile.createDirectory(url) }

    func write(_ text: String, to url: URL) throws(PoolSizeError) { try AtomicFile.write(text, to: url) }
}
