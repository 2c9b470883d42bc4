import Foundation
import PoolSizeModel
import PoolSizeObserve

extension ReportWriter {
    /// Writes an observation's derived files: a CSV per pool (`pools/<stem>.csv`, its timeline)
    /// into the run directory, the charts of shares over time into the plots directory, then
    /// `report.md` and `report.html`. `observe --out` calls it after `RunDirectory.save(_:)`;
    /// `report RUN_DIR` and `plot RUN_DIR` rerun it from observation.json.
    package func writeObservationReport(_ run: ObservationRun) throws(PoolSizeError) -> ReportOutcome {
        let directory = RunDirectory(runDirectory)
        let stems = run.fileStems
        for pool in run.observation.pools {
            guard let stem = stems[pool.name] else { continue }
            try write(PoolTimelineCSV.serialize(pool), to: directory.poolCSV(stem: stem))
        }
        let charts = try writeObservationCharts(run)
        let document = ObservationReportBuilder.build(
            run, charts: charts.charts, chartsRendered: charts.allRendered,
            plotCommand: "poolsize plot \(display(runDirectory))", wording: wording)
        return try writeDocument(document, charts: charts)
    }

    /// The charts of shares over time of the pools the report details.
    package func writeObservationCharts(_ run: ObservationRun) throws(PoolSizeError) -> ChartOutcome {
        try writeCharts(SharesChart.charts(run, pools: ObservationTable.detailed(run.observation)))
    }
}
