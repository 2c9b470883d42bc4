/// Every chart a run's data supports, in report order. A chart whose axis the run did not
/// vary (primitives, tiers, contention) or whose data it did not record (latency) is left out
/// rather than drawn empty.
package enum ChartSet {
    package static func charts(_ analysis: RunAnalysis) -> [Chart] {
        plots(analysis).map(GnuplotScript.render)
    }

    /// The descriptions of the charts, before rendering.
    package static func plots(_ analysis: RunAnalysis) -> [PlotSpec] {
        // An open loop is judged on latency at a rate: its charts are latency against size and,
        // over a range, against rate. The closed loop's throughput, utilization and concurrency
        // curves (with their formula and knee) describe a pool run flat out, which it was not.
        switch analysis.loop {
        case .open:
            return [OpenLoopSizeChart.plot(analysis), OpenLoopRateChart.plot(analysis), ServerChart.plot(analysis)]
                .compactMap { $0 }
        case .closed:
            return [
                ThroughputChart.plot(analysis),
                LatencyChart.plot(analysis),
                UtilizationChart.plot(analysis),
                AxisAtSizeChart.plot(analysis, axis: .primitive),
                AxisAtSizeChart.plot(analysis, axis: .qos),
                ContentionChart.plot(analysis),
                ConcurrencyChart.plot(analysis),
                ServerChart.plot(analysis),
                AdaptiveChart.plot(analysis),
            ].compactMap { $0 }
        }
    }
}
