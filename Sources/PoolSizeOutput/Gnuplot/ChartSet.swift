/// Every chart a run's data supports, in report order. A chart whose axis the run did not
/// vary (primitives, tiers, contention) or whose data it did not record (latency) is left out
/// rather than drawn empty.
package enum ChartSet {
    package static func charts(_ analysis: RunAnalysis) -> [Chart] {
        [
            ThroughputChart.chart(analysis),
            LatencyChart.chart(analysis),
            UtilizationChart.chart(analysis),
            PrimitivesChart.chart(analysis),
            QoSChart.chart(analysis),
            ContentionChart.chart(analysis),
            ConcurrencyChart.chart(analysis),
        ].compactMap { $0 }
    }
}
