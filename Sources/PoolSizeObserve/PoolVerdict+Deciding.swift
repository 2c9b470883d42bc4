import Foundation

extension PoolVerdict {
    /// Fewer thread samples than this and the shares mean little (a 10% share from 50 samples
    /// has a binomial standard error of 4 points).
    package static let minimumSamples = 50
    /// Less CPU than this, in cores (1 ms per second), and the pool did no work while observed.
    package static let idleCores = 0.001
    /// Q/C at or above this: the threads wait for a CPU half as long as they run; the CPUs are
    /// short, and more threads would only lengthen the queue.
    package static let saturatedQueueToCPU = 0.5
    /// ...provided at least this many of the pool's threads wait for a CPU on average. A thread
    /// that runs a few microseconds per wake-up has a large Q/C from wake-up latency alone, on
    /// CPUs that are far from short.
    package static let saturatedRunnableThreads = 0.1
    /// Busy at least this much (its low bound) and a pool below the size range is undersized.
    package static let fullyBusy = 0.9

    /// The verdict on `pool` from its figures: its thread count against the size range
    /// (resolved to a point when `--latency` resolved the ambiguous waits).
    package static func decide(_ pool: PoolEstimate) -> PoolVerdict {
        if pool.samples < minimumSamples { return PoolVerdict(kind: .undetermined, reason: .tooFewSamples) }
        guard pool.cpuCores >= idleCores, var size = pool.size else {
            return PoolVerdict(kind: .undetermined, reason: .noWork)
        }
        if pool.threads < 2 { return PoolVerdict(kind: .undetermined, reason: .singleThread) }
        let runnableThreads = (pool.share(.runnable)?.fraction ?? 0) * pool.meanThreads
        if let queueToCPU = pool.queueToCPU, queueToCPU >= saturatedQueueToCPU,
            runnableThreads >= saturatedRunnableThreads
        {
            return PoolVerdict(kind: .cpuSaturated)
        }
        if let task = pool.perTask, let resolved = task.resolvedWaitSeconds, task.cpuSeconds > 0, let point = pool.size,
            let ratio = pool.waitToCPU
        {
            // N is linear in W/C: place the resolved W/C on the same line as the range's ends.
            let wc = resolved / task.cpuSeconds
            let slope = ratio.high > ratio.low ? (point.high - point.low) / (ratio.high - ratio.low) : 0
            let n = slope > 0 ? point.low + (wc - ratio.low) * slope : point.low
            size = ValueRange(low: n, high: n)
        }
        let threads = Double(pool.threads)
        let low = size.low.rounded(.down), high = size.high.rounded(.up)
        if threads > high { return PoolVerdict(kind: .oversized) }
        if threads < low { return PoolVerdict(kind: pool.busy.low >= fullyBusy ? .undersized : .aboutRight) }
        // Inside the range: a verdict only if the range is narrow enough for it not to matter
        // where in it the truth lies.
        if high - low <= max(2, 0.25 * threads) { return PoolVerdict(kind: .aboutRight) }
        return PoolVerdict(kind: .undetermined, reason: .ambiguousWait)
    }
}
