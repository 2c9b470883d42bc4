import PoolSizeAnalysis
import PoolSizeModel

extension OpenMetricsExport {
    /// An open loop's families: per rate and size the rate carried, the p99 from intended
    /// arrival and the utilization; the recommended count per rate; the objective's figures
    /// (`OpenLoopFamilies`). It has no knee or formula of its own: its answer is the objective's.
    static func openLoopFamilies(_ analysis: RunAnalysis, _ plan: RunAnalysis.OpenLoop, runLabels: [(String, String)])
        -> [Family]
    {
        var (throughput, p99, utilization, recommended) = sizeFamilies()
        throughput.help = "Mean tasks finished per second at this offered rate and pool size."
        p99.help = "Mean 99th-percentile latency from each task's intended arrival over the repetitions."
        var open = OpenLoopFamilies()
        for curve in analysis.curves {
            let labels = labels(runLabels, curve.combination)
            // Per rate and size: a range's rates are separate series (a `rate` label).
            for point in plan.summaries where point.combination == curve.combination {
                let rate = point.arrivalRate ?? plan.topRate
                let sized = labels + [("rate", number(rate.perSecond)), ("size", String(point.poolSize))]
                throughput.samples.append((sized, point.openLoop?.achievedPerSecond ?? point.throughput.mean))
                if point.latencyP99Microseconds > 0 {
                    p99.samples.append((sized, point.latencyP99Microseconds / 1e6))
                }
                utilization.samples.append((sized, point.utilization))
            }
            open.add(plan, combination: curve.combination, labels: labels, recommendation: curve.recommendation)
            // The recommendation per rate: at the rate sized for when a size met the
            // objective there, and at each other rate of a range where one did.
            for t in plan.tables(curve.combination) {
                guard let pick = t.recommendedQueueCount else { continue }
                recommended.samples.append((labels + [("rate", number(t.arrivalRate.perSecond))], Double(pick)))
            }
        }
        return [throughput, p99, utilization, recommended] + open.families
    }
}
