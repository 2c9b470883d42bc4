import Foundation
import PoolSizeModel

extension ReportWriter {
    /// Writes the multi-machine chart (data, script, SVG and PNG when gnuplot renders it) into
    /// the plots directory, then `report.md` and `report.html` into `runDirectory`, which here is
    /// the `--out` directory, not any one machine's run.
    package func writeMachinesReport(_ comparison: MachineComparison) throws(PoolSizeError) -> ReportOutcome {
        try createDirectory(runDirectory)
        try createDirectory(plotsDirectory)
        let chart = MachinesChart.chart(comparison)
        var rendered: [String] = []
        var failure: ChartRenderFailure?
        if let chart {
            for data in chart.dataFiles { try write(data.text, to: plotsDirectory.appendingPathComponent(data.name)) }
            try write(chart.script, to: plotsDirectory.appendingPathComponent(chart.scriptFile))
            for name in [chart.svgFile, chart.pngFile] {
                try? FileManager.default.removeItem(at: plotsDirectory.appendingPathComponent(name))
            }
            do {
                try renderer.render(script: plotsDirectory.appendingPathComponent(chart.scriptFile))
                rendered.append(chart.name)
            } catch {
                for name in [chart.svgFile, chart.pngFile] {
                    try? FileManager.default.removeItem(at: plotsDirectory.appendingPathComponent(name))
                }
                failure = error
            }
        }
        let charts = ChartOutcome(
            charts: chart.map { [$0] } ?? [], rendered: rendered, failure: failure,
            message: failure.map { renderMessage($0, failed: 1) })
        let document = MachinesReportBuilder.build(comparison, chart: chart)
        let relative = RelativePath.from(runDirectory, to: plotsDirectory, currentDirectory: currentDirectory)
        let markdown = runDirectory.appendingPathComponent(RunDirectory.File.reportMarkdown.rawValue)
        try write(ReportMarkdown.render(document, chartDirectory: relative), to: markdown)
        let html = runDirectory.appendingPathComponent(RunDirectory.File.reportHTML.rawValue)
        let page = ReportHTML.render(document) { name in
            try? String(contentsOf: plotsDirectory.appendingPathComponent(name + ".svg"), encoding: .utf8)
        }
        try write(page, to: html)
        return ReportOutcome(charts: charts, markdown: markdown, html: html)
    }
}
