/// One pool of the observed process: its threads, where their time went and the size that
/// fits it.
package struct PoolEstimate: Equatable, Sendable, Codable {
    /// The pool's name (grouping rule or stripped thread name).
    package var name: String
    /// Thread names in the pool (up to five distinct), as the kernel has them.
    package var threadNames: [String]
    /// The most threads alive at one sweep: the pool's size.
    package var threads: Int
    /// Thread-seconds observed per second: the mean number alive.
    package var meanThreads: Double
    /// Threads seen at all, including those that came and went.
    package var threadsSeen: Int
    /// Threads that started during the observation.
    package var threadsStarted: Int
    /// Threads that ended during the observation.
    package var threadsExited: Int
    /// Thread samples taken (one per thread per sweep).
    package var samples: Int
    /// The five shares of thread time, each with its interval.
    package var shares: [ShareEstimate]
    /// Busy: running + runnable + known IO, up to that plus ambiguous.
    package var busy: ValueRange
    /// C per second: the pool's CPU use in cores.
    package var cpuCores: Double
    /// Q/C: run-queue time per CPU time; nil without CPU.
    package var queueToCPU: Double?
    /// W/C: known IO only, up to known IO + ambiguous; nil without CPU.
    package var waitToCPU: ValueRange?
    /// W/C's 95% interval: the known-IO bound's lower limit to the other bound's upper limit,
    /// from the batches (`WaitToCPUInterval`); nil with fewer than two batches that ran tasks.
    package var waitToCPUInterval95: ValueRange?
    /// cores × U × (1 + W/C) over W/C's range; nil without CPU.
    package var size: ValueRange?
    /// The verdict.
    package var verdict: PoolVerdict
    /// The calls the pool's threads were found blocked in, most frequent first.
    package var topCalls: [LabelShare]
    /// The socket peers they were blocked on, most frequent first.
    package var topPeers: [LabelShare]
    /// Context switches per second per thread (voluntary, involuntary), from status when each
    /// thread was first seen and at the last sweep; nil when no thread was read twice.
    package var switchesPerThreadSecond: SwitchRates?
    /// Per-task figures when the task rate is known.
    package var perTask: TaskEstimate?
    /// The shares second by second (`PoolSlice`), oldest first.
    package var timeline: [PoolSlice] = []
    /// How many of the processes the pool's threads live in did work while observed (1 ms of
    /// CPU a second or more; at least 1): worker processes with `--children`, not an idle
    /// supervisor beside them.
    package var processes: Int?
    /// The program or runtime every process of the pool was recognised as, if any.
    package var program: KnownProgram?
    /// The parallelism `size` assumes when it is not the cores: one per process of a runtime
    /// with an interpreter lock (CPython, Ruby MRI), at most the cores, unless `--parallelism`
    /// was given; nil when `size` uses the cores.
    package var parallelism: Int?
    /// N over W/C's range with the cores, when `parallelism` replaced them.
    package var sizeWithCores: ValueRange?

    /// Voluntary and involuntary context switches per thread-second.
    package struct SwitchRates: Equatable, Sendable, Codable {
        /// Voluntary: the thread blocked.
        package var voluntary: Double
        /// Involuntary: the scheduler took the CPU away (time slice, preemption).
        package var involuntary: Double

        /// Rates.
        package init(voluntary: Double, involuntary: Double) {
            self.voluntary = voluntary
            self.involuntary = involuntary
        }
    }

    /// Keys as the run directory's reader spells them once snake_cased (`queue_to_cpu` →
    /// `queueToCpu`), so observation.json reads back (RunDirectoryJSON).
    enum CodingKeys: String, CodingKey {
        case name, threadNames, threads, meanThreads, threadsSeen, threadsStarted, threadsExited, samples, shares, busy
        case cpuCores
        case queueToCPU = "queueToCpu", waitToCPU = "waitToCpu", waitToCPUInterval95 = "waitToCpuInterval95"
        case size, verdict, topCalls, topPeers, switchesPerThreadSecond, perTask, timeline
        case processes, program, parallelism, sizeWithCores
    }

    /// The share of `kind`.
    package func share(_ kind: ShareKind) -> ShareEstimate? { shares.first { $0.kind == kind } }

    /// Whether an interpreter lock set the parallelism N assumes.
    package var lockLimited: Bool { parallelism != nil && program?.hasInterpreterLock == true }

    /// The size the verdict judges by: the one figure `--latency` resolved, else the range.
    package var judgedSize: ValueRange? {
        if let resolved = perTask?.resolvedSize { return ValueRange(low: resolved, high: resolved) }
        return size
    }
}
