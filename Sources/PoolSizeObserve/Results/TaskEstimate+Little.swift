import PoolSizeStats

extension TaskEstimate {
    /// Per-task figures of `pool` at `throughputPerSecond` tasks per second. Each share of thread
    /// time times the mean thread count is that many threads busy that way; over λ, seconds per
    /// task. With `latencySeconds` (D), λ·D threads are inside tasks (Little), so the ambiguous
    /// threads that are part of a task are λ·D minus the known busy ones, within [0, ambiguous].
    ///
    /// The resolved W gives one W/C and one N (`parallelism` × `utilization` × (1 + W/C), the
    /// parallelism the pool's range used), so the verdict judges a figure, not a range.
    package static func little(
        for pool: PoolEstimate, throughputPerSecond rate: Double, latencySeconds: Double?, parallelism: Double = 0,
        utilization: Double = 1
    ) -> TaskEstimate? {
        guard rate > 0 else { return nil }
        let threads = pool.meanThreads
        let share = { (kind: ShareKind) in (pool.share(kind)?.fraction ?? 0) * threads }
        let io = share(.blockedIO), ambiguous = share(.ambiguous)
        let cpu = pool.cpuCores / rate
        let wait = ValueRange(low: io / rate, high: (io + ambiguous) / rate)
        let needed = wait.map { rate * (cpu + $0) }
        let probability = needed.map { Queueing.erlangC(servers: pool.threads, offeredLoad: $0) }
        var resolved: Double?, inFlight: Double?, ratio: Double?, size: Double?
        if let latency = latencySeconds {
            let known = share(.running) + share(.runnable) + io
            inFlight = rate * latency
            let inTask = min(ambiguous, max(0, rate * latency - known))
            resolved = (io + inTask) / rate
            if cpu > 0, let resolved {
                ratio = resolved / cpu
                if parallelism > 0 {
                    size = SizingFormula.queueCount(
                        cores: parallelism, targetUtilization: utilization, waitCPURatio: resolved / cpu)
                }
            }
        }
        return TaskEstimate(
            throughputPerSecond: rate, cpuSeconds: cpu, runQueueSeconds: share(.runnable) / rate, waitSeconds: wait,
            threadsNeeded: needed, waitProbability: probability, resolvedWaitSeconds: resolved,
            tasksInFlight: inFlight, resolvedWaitToCPU: ratio, resolvedSize: size)
    }
}
