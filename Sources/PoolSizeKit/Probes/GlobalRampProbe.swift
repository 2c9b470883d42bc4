import Dispatch
import PoolSizeModel

/// Keeps `tasks` blocking task chains on `DispatchQueue.global()` for a few seconds (each task
/// sleeps, then resubmits itself) and counts, at each checkpoint, the distinct threads that have
/// run one. docs/platform.md: the Linux libdispatch adds about one thread per second when all block.
package struct GlobalRampProbe: ObservingProbe {
    package let name = ProbeName.globalRamp
    package var tasks: Int
    package var taskMilliseconds: Int
    /// Seconds after the start at which threads are counted; the last one ends the probe.
    package var checkpoints: [Double]
    /// CPUs libdispatch sizes its pool for (the affinity mask, not the cgroup quota).
    package var cores: Int

    package init(
        tasks: Int = 32, taskMilliseconds: Int = 50, checkpoints: [Double] = [0.5, 1, 2, 3],
        cores: Int = MachineProbe.coreCount().affinity
    ) {
        self.tasks = tasks
        self.taskMilliseconds = taskMilliseconds
        self.checkpoints = checkpoints
        self.cores = cores
    }

    /// One blocking task chain: sleep, then resubmit, until the deadline.
    private final class Chain: Sendable {
        let queue: DispatchQueue
        let tally: ThreadTally
        let group: DispatchGroup
        let deadline: UInt64
        let sleepMicroseconds: Double

        init(
            queue: DispatchQueue, tally: ThreadTally, group: DispatchGroup, deadline: UInt64, sleepMicroseconds: Double
        ) {
            self.queue = queue
            self.tally = tally
            self.group = group
            self.deadline = deadline
            self.sleepMicroseconds = sleepMicroseconds
        }

        func step() {
            guard RoundPlanner.now() < deadline else { return group.leave() }
            tally.enter()
            SleepWaiter().wait(microseconds: sleepMicroseconds)
            tally.leave()
            queue.async { self.step() }
        }
    }

    package func observe() -> GlobalRampObservation {
        let queue = DispatchQueue.global()
        let tally = ThreadTally()
        let group = DispatchGroup()
        let t0 = RoundPlanner.now()
        let end = checkpoints.max() ?? 0
        let deadline = t0 + UInt64(end * 1e9)
        for _ in 0..<tasks {
            group.enter()
            let chain = Chain(
                queue: queue, tally: tally, group: group, deadline: deadline,
                sleepMicroseconds: Double(taskMilliseconds) * 1_000)
            queue.async { chain.step() }
        }
        var observed: [GlobalRampObservation.Checkpoint] = []
        for checkpoint in checkpoints.sorted() {
            let at = t0 + UInt64(checkpoint * 1e9)
            let now = RoundPlanner.now()
            if at > now { SleepWaiter().wait(microseconds: Double(at - now) / 1_000) }
            observed.append(.init(seconds: checkpoint, threads: tally.distinctThreads, running: tally.inside))
        }
        // Each chain ends at its next step; a queue this slow to drain is reported, not waited on.
        _ = group.wait(timeout: .now() + .milliseconds(taskMilliseconds * 4 + 2_000))
        return GlobalRampObservation(
            cores: cores, tasks: tasks, taskMilliseconds: taskMilliseconds, checkpoints: observed)
    }
}
