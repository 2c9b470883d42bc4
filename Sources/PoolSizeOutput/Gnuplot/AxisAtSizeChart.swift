import PoolSizeModel

/// One axis of the run compared at the recommended pool size, the recommendation's other two
/// held fixed: the synchronization primitives (its pool kind and QoS tier fixed) or the QoS
/// tiers (its pool kind and primitive fixed), each labelled with the nice value its workers
/// really ran at. Only for runs that varied that axis.
package enum AxisAtSizeChart {
    /// The axis compared.
    package enum Axis: String, CaseIterable, Sendable {
        /// The synchronization primitive guarding the task's critical section.
        case primitive
        /// The QoS tier the workers ran at.
        case qos
    }

    package static func chart(_ analysis: RunAnalysis, axis: Axis) -> Chart? {
        plot(analysis, axis: axis).map(GnuplotScript.render)
    }

    package static func plot(_ analysis: RunAnalysis, axis: Axis) -> PlotSpec? {
        guard let primary = analysis.primary, let size = primary.recommendation?.recommendedQueueCount else {
            return nil
        }
        let fixed = primary.combination
        let curves = analysis.curves
            .filter {
                $0.combination.pool == fixed.pool
                    && (axis == .primitive
                        ? $0.combination.qos == fixed.qos : $0.combination.primitive == fixed.primitive)
            }
            .sorted { $0.combination < $1.combination }
        guard curves.count > 1 else { return nil }
        let bars = curves.compactMap { curve -> BarChart.Bar? in
            guard let point = curve.point(nearest: size) else { return nil }
            let elsewhere = point.poolSize == size ? nil : point.poolSize
            let label =
                switch axis {
                case .primitive: curve.combination.primitive.rawValue + (elsewhere.map { " (N = \($0))" } ?? "")
                case .qos:
                    "\(curve.combination.qos.rawValue) (nice \(point.effectiveNice))"
                        + (elsewhere.map { " N = \($0)" } ?? "")
                }
            return BarChart.Bar(
                label: label, value: point.throughput.mean, low: point.throughput.minimum,
                high: point.throughput.maximum)
        }
        let held = axis == .primitive ? fixed.qos.rawValue : fixed.primitive.rawValue
        let scope = "\(fixed.pool.rawValue), \(held)"
        let barTitle = "mean throughput at N = \(size) (\(scope))"
        // The axes differ only in their words.
        let (name, noun, caption, note, xlabel) =
            switch axis {
            case .primitive:
                (
                    "primitives", "primitive", "Synchronization primitives",
                    "Mean throughput of each primitive guarding the task's critical section at the recommended size (\(scope)); a primitive measured without that size is shown at its nearest one.",
                    "synchronization primitive guarding the critical section"
                )
            case .qos:
                (
                    "qos", "QoS tier", "QoS tiers",
                    "Mean throughput of each QoS tier run alone at the recommended size (\(scope)), labelled with the nice value its workers actually ran at. Alone, a tier's nice value matters only when the CPU is saturated.",
                    "QoS tier (nice value its workers ran at)"
                )
            }
        return BarChart.plot(
            name: name, caption: "\(caption) at N = \(size)", note: note, analysis: analysis, xlabel: xlabel,
            ylabel: "throughput (tasks/s)", barTitle: barTitle, bars: bars, valueFormat: "%.0f",
            dataHeader: "throughput per \(noun) at N = \(size), \(scope)")
    }
}
