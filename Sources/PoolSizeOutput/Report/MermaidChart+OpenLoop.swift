import PoolSizeModel

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
