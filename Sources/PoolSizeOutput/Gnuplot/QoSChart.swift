import PoolSizeModel

/// The QoS tiers compared at the recommended pool size (pool kind and primitive held fixed),
/// each labelled with the nice value its workers really ran at. Only for runs that varied the tier.
package enum QoSChart {
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        guard let primary = analysis.primary, let size = primary.recommendation?.recommendedQueueCount else {
            return nil
        }
        let curves = analysis.curves
            .filter {
                $0.combination.pool == primary.combination.pool
                    && $0.combination.primitive == primary.combination.primitive
            }
            .sorted { $0.combination < $1.combination }
        guard curves.count > 1 else { return nil }
        let bars = curves.compactMap { curve -> BarChart.Bar? in
            guard let point = curve.point(nearest: size) else { return nil }
            var label = "\(curve.combination.qos.rawValue) (nice \(point.effectiveNice))"
            if point.poolSize != size { label += " N = \(point.poolSize)" }
            return BarChart.Bar(
                label: label, value: point.throughput.mean, low: point.throughput.minimum,
                high: point.throughput.maximum)
        }
        let scope = "\(primary.combination.pool.rawValue), \(primary.combination.primitive.rawValue)"
        return BarChart.chart(
            name: "qos", caption: "QoS tiers at N = \(size)",
            note:
                "Mean throughput of each QoS tier run alone at the recommended size (\(scope)), labelled with the nice value its workers actually ran at. Alone, a tier's nice value matters only when the CPU is saturated.",
            analysis: analysis, xlabel: "QoS tier (nice value its workers ran at)", ylabel: "throughput (tasks/s)",
            barTitle: "mean throughput at N = \(size) (\(scope))",
            bars: bars, valueFormat: "%.0f", dataHeader: "throughput per QoS tier at N = \(size), \(scope)")
    }
}

/// The QoS tiers competing for the CPU at once (`--contend`): each tier's share of the tasks
/// completed, labelled with its effective nice value.
package enum ContentionChart {
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        let shares = analysis.run.contention
        guard !shares.isEmpty else { return nil }
        let order = QoSTier.allCases
        let sorted = shares.sorted { order.firstIndex(of: $0.qos)! < order.firstIndex(of: $1.qos)! }
        let bars = sorted.map { share in
            BarChart.Bar(
                label: share.qos.rawValue + " (nice \(share.effectiveNice))", value: share.share * 100, low: nil,
                high: nil)
        }
        return BarChart.chart(
            name: "contention", caption: "QoS tiers competing for the CPU (--contend, cpu workload)",
            note:
                "Each tier's share of the tasks completed while all tiers ran the CPU-bound workload at once, one queue pool of `cores` queues per tier, labelled with the nice value its workers ran at. Equal shares mean the tiers' priorities did not take effect.",
            analysis: analysis, xlabel: "QoS tier (nice value its workers ran at)",
            ylabel: "share of tasks completed (%)", barTitle: "share of completed tasks",
            bars: bars, valueFormat: "%.1f%%",
            dataHeader: "share of tasks completed per QoS tier while all competed, in percent")
    }
}
