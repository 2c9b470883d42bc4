import PoolSizeAnalysis
import PoolSizeModel

extension OpenMetricsExport {
    /// The families only an open loop has, each sample labelled with its rate (and size).
    struct OpenLoopFamilies {
        var percentile = Family(
            name: "poolsize_latency_slo_percentile_seconds",
            help:
                "The objective's percentile of latency from each task's intended arrival, worst repetition, at this rate and pool size.",
            unit: "seconds")
        var model = Family(
            name: "poolsize_model_latency_slo_percentile_seconds",
            help:
                "That percentile as the queueing model (the task's own time plus M/M/c's wait) predicts it; absent where its queue cannot keep up.",
            unit: "seconds")
        var stable = Family(
            name: "poolsize_stable",
            help:
                "1 when every repetition kept up with the arrivals (carried at least 99%, backlog not growing), else 0."
        )
        var met = Family(
            name: "poolsize_slo_met",
            help: "1 when the size kept up and its percentile met the latency objective, else 0.")
        var objective = Family(name: "poolsize_latency_slo_seconds", help: "The latency objective.", unit: "seconds")
        var modelQueues = Family(
            name: "poolsize_queueing_model_queues",
            help: "The smallest pool size the queueing model says meets the objective (or keeps up) at this rate.")

        var families: [Family] { [percentile, model, stable, met, objective, modelQueues] }

        mutating func add(
            _ plan: RunAnalysis.OpenLoop, combination: Combination, labels: [(String, String)],
            recommendation: Recommendation?
        ) {
            let quantile = [("percentile", number(plan.arrival.sloPercentile))]
            for t in plan.tables(combination) {
                let rated = labels + [("rate", number(t.arrivalRate.perSecond))]
                for v in t.verdicts {
                    let sized = rated + [("size", String(v.poolSize))]
                    percentile.samples.append((sized + quantile, v.percentileMicroseconds / 1e6))
                    if let m = v.modelPercentileMicroseconds { model.samples.append((sized + quantile, m / 1e6)) }
                    stable.samples.append((sized, v.stable ? 1 : 0))
                    if let m = v.meetsSLO { met.samples.append((sized, m ? 1 : 0)) }
                }
                if let m = t.queueingModelQueueCount { modelQueues.samples.append((rated, Double(m))) }
            }
            if let slo = plan.arrival.latencySLOMicroseconds {
                objective.samples.append((labels + quantile, slo / 1e6))
            }
        }
    }
}
