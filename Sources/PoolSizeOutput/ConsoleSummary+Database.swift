import PoolSizeAnalysis
import PoolSizeModel

extension ConsoleSummary {
    /// A `--postgres` sweep's database per size (errors by SQLSTATE, the backends' CPU per
    /// transaction, the shares of their samples) and why the curve bends; empty for any other run.
    static func database(_ analysis: RunAnalysis, best: Recommendation) -> String {
        let (sizes, bend) = DatabaseProse.figures(
            analysis.run.records, combination: best.combination,
            knee: best.kneeQueueCount ?? best.recommendedQueueCount)
        guard !sizes.isEmpty else { return "" }
        var out = "\ndatabase (the sweep's backends, sampled in pg_stat_activity):\n"
        out += align([DatabaseProse.header] + sizes.map(DatabaseProse.row), left: [1])
        if let bend { out += DatabaseProse.lead(bend) + DatabaseProse.sentence(bend) + "\n" }
        return out
    }
}
