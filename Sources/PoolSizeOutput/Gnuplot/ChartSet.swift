/// Every chart a run's data supports, in report order. A chart whose axis the run did not
/// vary (primitives, tiers, contention) or whose data it did not record (latency) is left out
/// rather than drawn empty.
package enum ChartSet {
    package static func charts(_ analysis: RunAnalysis) -> [Chart] {
        // An open loop is judged on latency at a rate: its charts are latency against size and,
        // over a range, against rate. The closed loop's throughput, utilization and concurrency
        // curves (with their formula and knee) describe a pool run flat out, which it was not.
        if analysis.isOpenLoop {
            return [OpenLoopSizeChart.chart(analysis), OpenLoopRateChart.chart(analysis)].compactMap { $0 }
        }
        return [
            ThroughputChart.chart(analysis),
            LatencyChart.chart(analysis),
            UtilizationChart.chart(analysis),
            PrimitivesChart.chart(analysis),
            QoSChart.chart(analysis),
            ContentionChart.chart(analysis),
            ConcurrencyChart.chart(analysis),
            AdaptiveChart.chart(analysis),
        ].compactMap { $0 }
    }
}
