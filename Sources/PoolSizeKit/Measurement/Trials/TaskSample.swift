/// One task as the trial runner saw it. Times are monotonic nanoseconds.
package struct TaskSample: Equatable, Sendable {
    /// When the task was handed to the pool.
    package var submitted: UInt64
    /// When a worker began the task body.
    package var started: UInt64
    /// When the task body returned.
    package var ended: UInt64
    /// Thread CPU time the body consumed.
    package var cpuNanoseconds: UInt64
    /// Kernel id of the thread that ran it.
    package var thread: Int32
    /// Nice value of that thread while it ran the task.
    package var nice: Int32
    /// Whether the task failed (`TaskOutcome.failure`).
    package var failed = false

    /// One task's timestamps (CLOCK_MONOTONIC ns), CPU time, thread id and nice.
    package init(submitted: UInt64, started: UInt64, ended: UInt64, cpuNanoseconds: UInt64, thread: Int32, nice: Int32)
    {
        self.submitted = submitted
        self.started = started
        self.ended = ended
        self.cpuNanoseconds = cpuNanoseconds
        self.thread = thread
        self.nice = nice
    }

    /// Wall time of the body.
    package var wallNanoseconds: UInt64 { ended &- started }
    /// Body wall time not spent on CPU: blocking waits, and run-queue delay when oversubscribed.
    package var waitNanoseconds: UInt64 { wallNanoseconds > cpuNanoseconds ? wallNanoseconds - cpuNanoseconds : 0 }
}
