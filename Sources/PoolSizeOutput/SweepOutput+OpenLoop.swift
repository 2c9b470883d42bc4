import PoolSizeAnalysis
import PoolSizeModel

extension SweepOutput {
    /// Every configuration of an open loop, at every rate.
    static func openLoopConfigurations(_ open: RunAnalysis.OpenLoop) -> [Configuration] {
        open.summaries.map { openLoopConfiguration($0, open) }
    }

    /// An open-loop configuration: the figures every load has, then its rate, what it carried,
    /// its stability and backlog, and its verdict at that rate.
    static func openLoopConfiguration(_ s: ConfigurationSummary, _ open: RunAnalysis.OpenLoop) -> Configuration {
        var c = configuration(s)
        guard let rate = s.arrivalRate, let o = s.openLoop else { return c }
        let verdict = open.table(s.combination, rate: rate)?.verdict(s.poolSize)
        c.arrivalRate = rate
        c.offeredPerSecond = o.offeredPerSecond
        c.achievedPerSecond = o.achievedPerSecond
        c.stable = o.stable
        c.backlogMean = o.backlogMean.isFinite ? o.backlogMean : nil
        // Not measured for a load tool's trials: left out.
        if o.backlogMeasured {
            c.backlogMax = o.backlogMax
            c.unfinished = o.unfinished
            c.dispatchLagP99Microseconds = o.dispatchLagP99Microseconds
        }
        c.latencyP50Microseconds = verdict?.p50Microseconds
        c.sloPercentileMicroseconds = verdict?.percentileMicroseconds
        c.modelSLOPercentileMicroseconds = verdict?.modelPercentileMicroseconds
        c.meetsSLO = verdict?.meetsSLO
        return c
    }
}
