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
