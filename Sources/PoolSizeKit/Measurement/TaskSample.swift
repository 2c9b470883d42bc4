/// One task as the trial runner saw it. Times are monotonic nanoseconds.
public struct TaskSample: Equatable, Sendable {
    /// When the task was handed to the pool.
    public var submitted: UInt64
    /// When a worker began the task body.
    public var started: UInt64
    /// When the task body returned.
    public var ended: UInt64
    /// Thread CPU time the body consumed.
    public var cpuNanoseconds: UInt64
    /// Kernel id of the thread that ran it.
    public var thread: Int32
    /// Nice value of that thread while it ran the task.
    public var nice: Int32
    /// Whether the task failed (`TaskOutcome.failure`).
    public var failed = false

    /// One task's timestamps (CLOCK_MONOTONIC ns), CPU time, thread id and nice.
    public init(submitted: UInt64, started: UInt64, ended: UInt64, cpuNanoseconds: UInt64, thread: Int32, nice: Int32) {
        self.submitted = submitted
        self.started = started
        self.ended = ended
        self.cpuNanoseconds = cpuNanoseconds
        self.thread = thread
        self.nice = nice
    }

    /// Wall time of the body.
    public var wallNanoseconds: UInt64 { ended &- started }
    /// Body wall time not spent on CPU: blocking waits, and run-queue delay when oversubscribed.
    public var waitNanoseconds: UInt64 { wallNanoseconds > cpuNanoseconds ? wallNanoseconds - cpuNanoseconds : 0 }
}
