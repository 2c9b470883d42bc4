import PoolSizeModel

/// What an `AdaptiveQueuePool` measured and decided, read from `AdaptiveQueuePool.status`: the
/// size in force and why, the W/C estimate the formula rests on, and the last window's figures
/// that decide whether it may grow (work waiting, the CPUs' share in use).
///
/// ```swift
/// print(pool.status)  // 22 queues (2…64) after `formula` at 0.21 s; C 1.02 ms, W/C 9.87 …
/// ```
public struct AdaptivePoolStatus: Sendable, Equatable, CustomStringConvertible {
    /// One change of the queue count.
    public struct Change: Sendable, Equatable {
        /// Seconds since the pool was created.
        public var seconds: Double
        /// Queues from then on.
        public var size: Int
        /// Why, one of the controller's rules (docs/guide/adaptive-pool.md, "How it decides"):
        /// `starvation`, `formula`, `recheck`, `trimmed`, `shrink`, `probeUp`, `probeDown`,
        /// `probeKept`, `probeReverted`.
        public var reason: String
        /// Tasks per second in the window that ended then.
        public var throughputPerSecond: Double
    }

    /// Queues new work is spread over now.
    public var size: Int
    /// The pool's bounds.
    public var minimum: Int
    /// The pool's bounds.
    public var maximum: Int
    /// Cores the formula sizes for.
    public var cores: Int
    /// Tasks finished since the pool was created.
    public var tasksFinished: Int
    /// Tasks handed to the pool and not yet begun.
    public var tasksWaiting: Int
    /// Sampled tasks the current C and W/C rest on (the estimate forgets a workload that changed).
    public var sampledTasks: Int
    /// Mean thread CPU time per sampled task, in seconds; nil before any was sampled.
    public var cpuSecondsPerTask: Double?
    /// W/C of the sampled tasks, run-queue time left out of W; nil before any was sampled.
    public var waitCPURatio: Double?
    /// cores × (1 + W/C) within the bounds, once the estimate rests on enough tasks.
    public var formulaSize: Int?
    /// Windows decided so far (about ten a second while the pool runs).
    public var windows: Int
    /// The last window's process CPU use as a share of the cores: the pool does not grow from 95%.
    public var cpuUtilization: Double
    /// The latest changes of size, oldest first (at most the last 64).
    public var changes: [Change]

    /// One line: the size and the rule behind it, the estimate, and what held it back when the
    /// formula asks for more.
    public var description: String {
        var text = "\(size) queues (\(minimum)…\(maximum))"
        if let last = changes.last {
            text += " after `\(last.reason)` at \(UnitFormat.significant(last.seconds)) s"
        } else {
            text += ", unchanged since the start"
        }
        text += "; \(tasksFinished) tasks finished, \(tasksWaiting) waiting"
        if let cpu = cpuSecondsPerTask, let ratio = waitCPURatio {
            text +=
                "; C \(UnitFormat.significant(cpu * 1e3)) ms, W/C \(UnitFormat.significant(ratio)) from \(sampledTasks) sampled tasks"
        } else {
            text += "; no task timed yet"
        }
        if let formulaSize {
            text += "; formula \(cores) × (1 + W/C) → \(formulaSize)"
            if formulaSize > size {
                if tasksWaiting == 0 {
                    text += "; not grown: no work waits"
                } else if cpuUtilization >= 0.95 {
                    text += "; not grown: the CPUs are saturated"
                }
            }
        }
        return text + "; \(windows) window\(windows == 1 ? "" : "s") decided"
    }
}
