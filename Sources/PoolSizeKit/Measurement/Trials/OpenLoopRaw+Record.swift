import PoolSizeModel

extension OpenLoopRaw {
    /// The open loop's figures into `record` (whose shared figures are derived already): its
    /// rate offered and carried, backlog, stability and dispatch lag, and the latency counted
    /// from each arrival's intended time over the window's arrivals. Every open loop records
    /// through here, whoever ran the tasks (this process's pools, a server).
    /// - Parameters:
    ///   - serviceSeconds: the mean time a finished task spent in service, for the tasks in
    ///     service at the window's edges (Little's law) that the stability verdict allows for.
    ///   - windowSeconds: the window's length.
    ///   - throughputPerSecond: tasks finished in the window per second, the rate carried.
    package func record(
        into record: inout TrialRecord, serviceSeconds: Double, windowSeconds: Double, throughputPerSecond: Double
    ) {
        let offered = Double(arrivalsInWindow) / windowSeconds
        record.loop = .open(
            OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: ratePerSecond), offeredPerSecond: offered,
                achievedPerSecond: throughputPerSecond,
                backlogMean: backlog.isEmpty ? 0 : Double(backlog.reduce(0, +)) / Double(backlog.count),
                backlogMax: backlog.max() ?? 0, backlogGrowth: backlogGrowth,
                stable: OpenLoopFigures.isStable(
                    offered: offered, achieved: throughputPerSecond, growth: backlogGrowth,
                    poolSize: record.poolSize, arrivalsInWindow: arrivalsInWindow,
                    busyQueues: offered * serviceSeconds),
                unfinished: unfinished,
                dispatchLagP99Microseconds: LatencyRecorder.percentiles(dispatchLags).p99))
        record.latency = LatencyRecorder.percentiles(latencies)
    }
}
