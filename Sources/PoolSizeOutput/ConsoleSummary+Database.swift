import PoolSizeAnalysis
import PoolSizeModel

extension ConsoleSummary {
    /// A `--postgres` sweep's database per size (errors by SQLSTATE, the backends' CPU per
    /// transaction, the shares of their samples) and why the curve bends; empty for any other run.
    static func database(_ analysis: RunAnalysis, best: Recommendation) -> String {
        let (sizes, bend) = DatabaseProse.figures(
            analysis.run.records, combination: best.combination,
            knee: best.kneeQueueCount ?? best.recommendedQueueCount, cores: analysis.run.plan?.cores)
        guard !sizes.isEmpty else { return "" }
        var out = "\ndatabase (the sweep's backends, sampled in pg_stat_activity):\n"
        out += align([DatabaseProse.header] + sizes.map(DatabaseProse.row), left: [1])
        if let bend { out += DatabaseProse.lead(bend) + DatabaseProse.sentence(bend) + "\n" }
        return out
    }

    /// An open-loop `--postgres` sweep's database at each offered rate and size (the closed
    /// loop's columns after the rate); empty for any other run.
    static func openLoopDatabase(_ analysis: RunAnalysis, combination: Combination?) -> String {
        guard let combination else { return "" }
        let byRate = DatabaseProse.figuresByRate(
            analysis.run.records, combination: combination, cores: analysis.run.plan?.cores)
        guard !byRate.isEmpty else { return "" }
        return "\ndatabase at each rate (the sweep's backends, sampled in pg_stat_activity):\n"
            + align([DatabaseProse.rateHeader] + DatabaseProse.rateRows(byRate), left: [2])
    }
}
