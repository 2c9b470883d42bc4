import Foundation
import PoolSizeModel

extension ReportWriter {
    /// Writes the multi-machine chart (data, script, SVG and PNG when gnuplot renders it) into
    /// the plots directory, then `report.md` and `report.html` into `runDirectory`, which here is
    /// the `--out` directory, not any one machine's run.
    package func writeMachinesReport(_ comparison: MachineComparison) throws(PoolSizeError) -> ReportOutcome {
        try createDirectory(runDirectory)
        let charts = try writeCharts(MachinesChart.chart(comparison).map { [$0] } ?? [])
        let document = MachinesReportBuilder.build(comparison, chart: charts.charts.first)
        return try writeDocument(document, charts: charts)
    }
}
