import PoolSizeAnalysis
import PoolSizeModel

extension SummaryCSV {
    /// A row's open-loop columns: the rate offered and carried, stability, backlog, the
    /// dispatcher's lag and the objective with the size's verdict; empty for a closed loop's row.
    static func openLoopFields(
        _ c: ConfigurationSummary, plan: ArrivalPlan?, verdict: SLOVerdict?, number n: (Double?, Int) -> String
    ) -> [String] {
        guard let rate = c.arrivalRate, let o = c.openLoop else {
            return Array(repeating: "", count: openLoopColumns.count)
        }
        let percentile = plan?.sloPercentile ?? 99
        return [
            n(rate.perSecond, 3), n(o.offeredPerSecond, 3), n(o.achievedPerSecond, 3), o.stable ? "yes" : "no",
            n(o.backlogMean, 3), o.backlogMeasured ? String(o.backlogMax) : "",
            o.backlogMeasured ? String(o.unfinished) : "", o.backlogMeasured ? n(o.dispatchLagP99Microseconds, 1) : "",
            UnitFormat.number(percentile), n(plan?.latencySLOMicroseconds, 1),
            n(verdict?.percentileMicroseconds ?? SLOSizer.value(o.worstLatency, percentile: percentile), 1),
            n(verdict?.modelPercentileMicroseconds, 1), verdict?.meetsSLO.map { $0 ? "yes" : "no" } ?? "",
        ]
    }
}
