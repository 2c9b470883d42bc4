import Foundation
import PoolSizeModel

extension PoolVerdict {
    /// Fewer thread samples than this and the shares mean little (a 10% share from 50 samples
    /// has a binomial standard error of 4 points).
    package static let minimumSamples = 50
    /// Less CPU than this, in cores (1 ms per second), and the pool did no work while observed.
    package static let idleCores = 0.001
    /// A process with less CPU than this share of the busiest one's is a supervisor beside the
    /// workers (gunicorn's or puma's master wakes about once a second and, on a busy machine,
    /// passes `idleCores`), not one of the processes the pool's work ran in.
    package static let supervisorShare = 0.05

    /// The processes that did the pool's work over `seconds`, from each one's CPU seconds in
    /// that time: `idleCores` or more, and `supervisorShare` of the busiest or more.
    package static func workingProcesses(cpuSeconds: [Int32: Double], over seconds: Double) -> [Int32] {
        guard seconds > 0, let busiest = cpuSeconds.values.max() else { return [] }
        return cpuSeconds.filter { $0.value / seconds >= idleCores && $0.value >= busiest * supervisorShare }
            .keys.sorted()
    }
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
    /// the limit (`InterpreterLock.busyCores`: a server sweep's knee is judged by the same).
    /// Futex waits prove nothing below it: CPython parks a thread waiting for the lock in a
    /// timed futex wait only while another holds it (ceval_gil.c's take_gil), but Ruby's
    /// `sleep`, `Thread#join`, Python's `join()`, `Event.wait` and a queue's `get` park in futex
    /// as well. Run-queue time does not count toward it: a thread woken from a sleep waits for a
    /// CPU before it asks for the lock, and a holder that waits for a CPU makes the CPUs the
    /// limit (`cpuSaturated`).
    package static let lockBusyCores = InterpreterLock.busyCores
    /// CPU per process above this and threads ran in parallel beyond the lock, so being in use
    /// is no proof that it is what the threads wait for (`InterpreterLock.parallelCores`).
    package static let lockParallelCores = InterpreterLock.parallelCores
    /// λ·D at or above this many times the threads: tasks queue before the pool (Little's law
    /// puts λ·D at most at the threads for the time inside it; the margin absorbs noise in λ and D).
    package static let queueingRatio = 1.25

    /// The verdict on `pool` from its figures: its thread count against the size range
    /// (resolved to a point when `--latency` resolved the ambiguous waits), in this order: too
    /// little to judge; an interpreter lock in use nearly always (`lockBound`); a count inside a range that
    /// ambiguous waits make wide (no "do not grow" from Q/C then: the waits may be tasks');
    /// the CPUs short; tasks queueing before the pool; the count against the range.
    package static func decide(_ pool: PoolEstimate) -> PoolVerdict {
        if pool.samples < minimumSamples { return PoolVerdict(kind: .undetermined, reason: .tooFewSamples) }
        guard pool.cpuCores >= idleCores, let size = pool.judgedSize else {
            return PoolVerdict(kind: .undetermined, reason: .noWork)
        }
        if pool.threads < 2 { return PoolVerdict(kind: .undetermined, reason: .singleThread) }
        if lockBound(pool) { return PoolVerdict(kind: .lockContended) }
        let threads = Double(pool.threads)
        let low = size.low.rounded(.down), high = size.high.rounded(.up)
        // Inside the range: a verdict only if the range is narrow enough for it not to matter
        // where in it the truth lies.
        if low <= threads && threads <= high && high - low > max(2, 0.25 * threads) {
            return PoolVerdict(kind: .undetermined, reason: .ambiguousWait)
        }
        // A lock-limited pool here left its lock free a tenth of the time or more: the CPUs
        // its threads wait for are what is short.
        if cpuShort(pool) { return PoolVerdict(kind: .cpuSaturated) }
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

    /// The pool's CPU per process that did work, in cores, when an interpreter lock set its
    /// parallelism: how much of the 1 core the lock allows each process its threads ran. Nil
    /// for any other pool.
    package static func lockCores(_ pool: PoolEstimate) -> Double? {
        guard pool.lockLimited else { return nil }
        return pool.cpuCores / Double(max(1, pool.processes ?? 1))
    }

    /// Whether the interpreter lock is the limit: `lockBusyCores` to `lockParallelCores` of CPU
    /// per process, so the lock was held nearly always by one thread at a time. Where the
    /// pool's threads blocked does not enter: futex is where lock waits park, and sleeps and
    /// joins too.
    package static func lockBound(_ pool: PoolEstimate) -> Bool {
        guard let cores = lockCores(pool) else { return false }
        return InterpreterLock.holds(coresPerProcess: cores)
    }

    /// Q/C at or above `saturatedQueueToCPU` with at least `saturatedRunnableThreads` waiting
    /// for a CPU on average.
    package static func cpuShort(_ pool: PoolEstimate) -> Bool {
        let runnableThreads = (pool.share(.runnable)?.fraction ?? 0) * pool.meanThreads
        guard let queueToCPU = pool.queueToCPU else { return false }
        return queueToCPU >= saturatedQueueToCPU && runnableThreads >= saturatedRunnableThreads
    }
}
