/// The synchronization primitives compared at the recommended pool size, with the pool kind and
/// QoS tier of the recommendation held fixed. Only for runs that varied the primitive.
package enum PrimitivesChart {
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        guard let primary = analysis.primary, let size = primary.recommendation?.recommendedQueueCount else {
            return nil
        }
        let curves = analysis.curves
            .filter { $0.combination.pool == primary.combination.pool && $0.combination.qos == primary.combination.qos }
            .sorted { $0.combination < $1.combination }
        guard curves.count > 1 else { return nil }
        let bars = curves.compactMap { curve -> BarChart.Bar? in
            guard let point = curve.point(nearest: size) else { return nil }
            let label =
                curve.combination.primitive.rawValue + (point.poolSize == size ? "" : " (N = \(point.poolSize))")
            return BarChart.Bar(
                label: label, value: point.throughput.mean, low: point.throughput.minimum,
                high: point.throughput.maximum)
        }
        let scope = "\(primary.combination.pool.rawValue), \(primary.combination.qos.rawValue)"
        return BarChart.chart(
            name: "primitives", caption: "Synchronization primitives at N = \(size)",
            note:
                "Mean throughput of each primitive guarding the task's critical section at the recommended size (\(scope)); a primitive measured without that size is shown at its nearest one.",
            analysis: analysis, xlabel: "synchronization primitive guarding the critical section",
            ylabel: "throughput (tasks/s)", barTitle: "mean throughput at N = \(size) (\(scope))",
            bars: bars, valueFormat: "%.0f", dataHeader: "throughput per primitive at N = \(size), \(scope)")
    }
}
