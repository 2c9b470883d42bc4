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

    /// CPU per process at or above this, in a runtime with an interpreter lock, and the lock is
    /// held nearly all the time: one core of the language is all the process gets.
    package static let lockBusyCores = 0.8
    /// λ·D at or above this many times the threads: tasks queue before the pool (Little's law
    /// puts λ·D at most at the threads for the time inside it; the margin absorbs noise in λ and D).
    package static let queueingRatio = 1.25

    /// The verdict on `pool` from its figures: its thread count against the size range
    /// (resolved to a point when `--latency` resolved the ambiguous waits), in this order: too
    /// little to judge; an interpreter lock held nearly always; a count inside a range that
    /// ambiguous waits make wide (no "do not grow" from Q/C then: the waits may be tasks');
    /// the CPUs short; tasks queueing before the pool; the count against the range.
    package static func decide(_ pool: PoolEstimate) -> PoolVerdict {
        if pool.samples < minimumSamples { return PoolVerdict(kind: .undetermined, reason: .tooFewSamples) }
        guard pool.cpuCores >= idleCores, let size = pool.judgedSize else {
            return PoolVerdict(kind: .undetermined, reason: .noWork)
        }
        if pool.threads < 2 { return PoolVerdict(kind: .undetermined, reason: .singleThread) }
        if pool.lockLimited, pool.cpuCores / Double(max(1, pool.processes ?? 1)) >= lockBusyCores {
            return PoolVerdict(kind: .lockContended)
        }
        let threads = Double(pool.threads)
        let low = size.low.rounded(.down), high = size.high.rounded(.up)
        // Inside the range: a verdict only if the range is narrow enough for it not to matter
        // where in it the truth lies.
        if low <= threads && threads <= high && high - low > max(2, 0.25 * threads) {
            return PoolVerdict(kind: .undetermined, reason: .ambiguousWait)
        }
        if cpuShort(pool) { return PoolVerdict(kind: pool.lockLimited ? .lockContended : .cpuSaturated) }
        if let inFlight = pool.perTask?.tasksInFlight, inFlight >= queueingRatio * threads {
            return PoolVerdict(kind: .queueing)
        }
        if threads > high { return PoolVerdict(kind: .oversized) }
        if threads < low {
            // With --latency, λ·D is the busy threads; from the samples alone, the known-busy share.
            let busy = pool.perTask?.tasksInFlight.map { min(1, $0 / threads) } ?? pool.busy.low
            return PoolVerdict(kind: busy >= fullyBusy ? .undersized : .aboutRight)
        }
        return PoolVerdict(kind: .aboutRight)
    }

    /// Q/C at or above `saturatedQueueToCPU` with at least `saturatedRunnableThreads` waiting
    /// for a CPU on average.
    package static func cpuShort(_ pool: PoolEstimate) -> Bool {
        let runnableThreads = (pool.share(.runnable)?.fraction ?? 0) * pool.meanThreads
        guard let queueToCPU = pool.queueToCPU else { return false }
        return queueToCPU >= saturatedQueueToCPU && runnableThreads >= saturatedRunnableThreads
    }
}
