import PoolSizeModel

/// The throughput curve as a Mermaid `xychart-beta` block: GitHub renders it natively in
/// Markdown, a job summary and a pull-request comment, where report.md's SVG links (relative to
/// the run directory) show as broken images. Holds numbers only, no user text.
package enum MermaidChart {
    /// The recommended combination's mean throughput per size; nil with fewer than two sizes.
    package static func throughput(_ curve: RunAnalysis.Curve) -> String? {
        let points = curve.points
        guard points.count >= 2 else { return nil }
        let peak = points.map(\.throughput.mean).filter(\.isFinite).max() ?? 0
        let top = max(1, (peak * 1.1).rounded(.up))
        var lines = [
            "xychart-beta",
            "    title \"Throughput (tasks/s) vs pool size\"",
            "    x-axis \"pool size N (queues)\" [\(points.map { String($0.poolSize) }.joined(separator: ", "))]",
            // Printed, not converted: a figure read from a damaged file may exceed Int's range.
            "    y-axis \"tasks/s\" 0 --> \(String(format: "%.0f", top))",
            "    line [\(points.map { value($0.throughput.mean) }.joined(separator: ", "))]",
        ]
        if let r = curve.recommendation, let at = points.firstIndex(where: { $0.poolSize == r.recommendedQueueCount }) {
            // A bar at the recommended size only, so the chart marks it.
            lines.append(
                "    bar [\(points.indices.map { $0 == at ? value(points[at].throughput.mean) : "0" }.joined(separator: ", "))]"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func value(_ v: Double) -> String {
        v.isFinite ? UnitFormat.number((v * 10).rounded() / 10) : "0"
    }
}

extension MermaidChart {
    /// An open loop's latency vs pool size at the rate sized for: the objective's percentile
    /// (worst repetition) per size as a line, the objective as a flat second line, and a bar at
    /// the recommended size. Milliseconds, capped at four times the objective (or the largest
    /// stable size's figure) so that one size that fell behind, at seconds, does not flatten
    /// the rest; the title says so. nil with fewer than two sizes.
    package static func openLoopLatency(_ open: RunAnalysis.OpenLoop, _ curve: RunAnalysis.Curve) -> String? {
        guard let table = open.table(curve.combination, rate: open.topRate), table.verdicts.count >= 2 else {
            return nil
        }
        let verdicts = table.verdicts
        let slo = open.arrival.latencySLOMicroseconds.map { $0 / 1000 }
        let stable = verdicts.filter(\.stable).map { $0.percentileMicroseconds / 1000 }
        let reference = slo ?? stable.max() ?? (verdicts.map { $0.percentileMicroseconds / 1000 }.min() ?? 1)
        let cap = max(1, (reference * 4).rounded(.up))
        let values = verdicts.map { min($0.percentileMicroseconds / 1000, cap) }
        let capped = verdicts.contains { $0.percentileMicroseconds / 1000 > cap }
        var title = "\(open.percentileName) latency (ms) vs pool size at \(UnitFormat.rate(open.topRate))"
        if let slo { title += "; flat line: objective \(UnitFormat.number(slo)) ms" }
        if capped { title += "; capped at \(UnitFormat.number(cap)) ms" }
        var lines = [
            "xychart-beta",
            "    title \"\(title)\"",
            "    x-axis \"pool size N (queues)\" [\(verdicts.map { String($0.poolSize) }.joined(separator: ", "))]",
            "    y-axis \"ms\" 0 --> \(UnitFormat.number(cap))",
            "    line [\(values.map(value).joined(separator: ", "))]",
        ]
        if let slo { lines.append("    line [\(verdicts.map { _ in value(min(slo, cap)) }.joined(separator: ", "))]") }
        if let r = curve.recommendation, r.latency?.met == true,
            let at = verdicts.firstIndex(where: { $0.poolSize == r.recommendedQueueCount })
        {
            lines.append(
                "    bar [\(verdicts.indices.map { $0 == at ? value(values[at]) : "0" }.joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n")
    }
}
