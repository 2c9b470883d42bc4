/// What the observation says about a pool's size. The figures behind it are the pool's own
/// (threads, size range, Q/C); the renderer turns them into a sentence.
package struct PoolVerdict: Equatable, Sendable, Codable {
    /// The verdicts.
    package enum Kind: String, CaseIterable, Sendable, Codable {
        /// More threads than cores × U × (1 + W/C) even at W/C's upper bound: the extra threads
        /// can only queue for the CPUs.
        case oversized
        /// The thread count is within the size range, or below it while the pool is not fully busy.
        case aboutRight
        /// Fewer threads than the size range's low end while nearly every thread is busy.
        case undersized
        /// The threads wait for CPUs a large part of the time they run (Q/C): do not grow the
        /// pool, whatever W/C says; the CPUs are the limit.
        case cpuSaturated
        /// The process runs one thread of its language at a time (CPython's or Ruby's
        /// interpreter lock) and the lock is the limit: the threads of each process ran nearly
        /// the one core the lock allows (`lockBound`). More threads would only wait for the
        /// lock. Futex waits never make it: sleeps and joins park there too.
        case lockContended
        /// With `--latency`: λ·D, the tasks in the pool on average, is well above its threads.
        /// Tasks queue before the pool for a thread, or D counts time spent outside it.
        case queueing
        /// The observation cannot tell; `reason` says why and what would.
        case undetermined
    }

    /// Why a verdict could not be given.
    package enum Reason: String, CaseIterable, Sendable, Codable {
        /// The pool used (almost) no CPU: it did no work while observed.
        case noWork
        /// Too few samples for the shares to mean anything.
        case tooFewSamples
        /// One thread: usually a helper (an event loop, a timer, a feeder) whose waits are its
        /// own, not a pool's tasks'; sizing it from W/C would mislead.
        case singleThread
        /// The thread count lies inside a size range that ambiguous waits make too wide; the task
        /// rate and the time a task spends in the pool would resolve them. No "do not grow"
        /// comes from run-queue time then either: the waits may be tasks'.
        case ambiguousWait
    }

    /// The verdict.
    package var kind: Kind
    /// Set for `undetermined`.
    package var reason: Reason?

    /// A verdict.
    package init(kind: Kind, reason: Reason? = nil) {
        self.kind = kind
        self.reason = reason
    }
}
