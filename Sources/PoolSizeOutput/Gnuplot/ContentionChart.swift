import PoolSizeModel

/// The QoS tiers competing for the CPU at once (`--contend`): each tier's share of the tasks
/// completed, labelled with its effective nice value.
package enum ContentionChart: RunChart {
    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        let shares = analysis.run.contention
        guard !shares.isEmpty else { return nil }
        let order = QoSTier.allCases
        let sorted = shares.sorted { order.firstIndex(of: $0.qos)! < order.firstIndex(of: $1.qos)! }
        let bars = sorted.map { share in
            BarChart.Bar(
                label: share.qos.rawValue + " (nice \(share.effectiveNice))", value: share.share * 100, low: nil,
                high: nil)
        }
        return BarChart.plot(
            name: "contention", caption: "QoS tiers competing for the CPU (--contend, cpu workload)",
            note:
                "Each tier's share of the tasks completed while all tiers ran the CPU-bound workload at once, one queue pool of `cores` queues per tier, labelled with the nice value its workers ran at. Equal shares mean the tiers' priorities did not take effect.",
            analysis: analysis, xlabel: "QoS tier (nice value its workers ran at)",
            ylabel: "share of tasks completed (%)", barTitle: "share of completed tasks",
            bars: bars, valueFormat: "%.1f%%",
            dataHeader: "share of tasks completed per QoS tier while all competed, in percent")
    }
}
