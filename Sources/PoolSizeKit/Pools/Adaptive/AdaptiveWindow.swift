/// What an adaptive pool measured over one decision window: the controller's only input, so
/// the controller can be driven by scripted windows in tests (docs/guide/adaptive-pool.md).
///
/// C and W come from a sample of the window's tasks: thread CPU time across the body (C), the
/// time the thread sat runnable in a run queue across it (R, schedstat's run_delay), and the
/// rest of the body's wall time (W = wall − C − R). Run-queue time is kept apart because it is
/// not wait: counting it as W would ask for more threads exactly when there are too many.
package struct AdaptiveWindow: Sendable, Equatable {
    /// Length of the window.
    package var seconds: Double
    /// Tasks that finished in the window.
    package var completed: Int
    /// Finished tasks whose C, W and R were measured (a sample of `completed`).
    package var sampledTasks: Int = 0
    /// Σ thread CPU time of the sampled tasks, seconds.
    package var cpuSeconds: Double = 0
    /// Σ off-CPU time of the sampled tasks that was not run-queue time, seconds.
    package var waitSeconds: Double = 0
    /// Σ run-queue time of the sampled tasks, seconds.
    package var runQueueSeconds: Double = 0
    /// Most tasks waiting (submitted, not started) at any moment of the window: did work wait?
    package var waitingPeak: Int = 0
    /// Tasks waiting at the window's end: with the busy queues, the tasks there are to run.
    package var waitingNow: Int = 0
    /// Queues running a task at the window's end.
    package var busyQueues: Int = 0
    /// Every queue ran one task through the whole window, finishing none, while work waited:
    /// the pool is starved and no throughput can be measured.
    package var everyQueueBlocked = false
    /// The process's CPU time over the window as a share of the cores (1 = every core busy).
    package var cpuUtilization: Double = 0

    /// A window with the given figures; the rest zero.
    package init(
        seconds: Double, completed: Int, sampledTasks: Int = 0, cpuSeconds: Double = 0, waitSeconds: Double = 0,
        runQueueSeconds: Double = 0, waitingPeak: Int = 0, waitingNow: Int? = nil, busyQueues: Int = 0,
        everyQueueBlocked: Bool = false, cpuUtilization: Double = 0
    ) {
        self.seconds = seconds
        self.completed = completed
        self.sampledTasks = sampledTasks
        self.cpuSeconds = cpuSeconds
        self.waitSeconds = waitSeconds
        self.runQueueSeconds = runQueueSeconds
        self.waitingPeak = waitingPeak
        self.waitingNow = waitingNow ?? waitingPeak
        self.busyQueues = busyQueues
        self.everyQueueBlocked = everyQueueBlocked
        self.cpuUtilization = cpuUtilization
    }

    /// Tasks finished per second of window.
    package var throughputPerSecond: Double { seconds > 0 ? Double(completed) / seconds : 0 }

    /// Share of the sampled tasks' wall time spent waiting for a CPU.
    package var runQueueShare: Double {
        let wall = cpuSeconds + waitSeconds + runQueueSeconds
        return wall > 0 ? runQueueSeconds / wall : 0
    }
}
