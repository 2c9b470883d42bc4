import Dispatch
import PoolSizeModel

/// Gives each of N serial queues one task that blocks until every task has started, then counts
/// the distinct threads that ran them. With N threads available all N block at once; with fewer,
/// the rest wait for a thread until the deadline.
package struct SerialThreadsProbe: ObservingProbe {
    package let name = ProbeName.serialThreads
    package var queues: Int
    /// How long to wait for every task to start.
    package var timeoutSeconds: Double

    package init(queues: Int = 32, timeoutSeconds: Double = 3) {
        self.queues = queues
        self.timeoutSeconds = timeoutSeconds
    }

    package func observe() -> SerialThreadsObservation {
        let tally = ThreadTally()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let hold = timeoutSeconds + 2
        let serialQueues = (0..<queues).map { DispatchQueue(label: "poolsize.probe.serial-threads.\($0)") }
        let t0 = RoundPlanner.now()
        for queue in serialQueues {
            done.enter()
            queue.async {
                tally.enter()
                started.signal()
                // Released by the probe; the timeout only guards against a probe that gave up.
                _ = release.wait(timeout: .now() + hold)
                tally.leave()
                done.leave()
            }
        }
        let deadline = DispatchTime.now() + timeoutSeconds
        var count = 0
        while count < queues, started.wait(timeout: deadline) == .success { count += 1 }
        let waited = Double(RoundPlanner.now() &- t0) / 1e9
        let observation = (started: tally.entries, threads: tally.distinctThreads, peak: tally.peak)
        for _ in 0..<queues { release.signal() }
        let drained = done.wait(timeout: .now() + hold) == .success
        return SerialThreadsObservation(
            queues: queues, started: observation.started, distinctThreads: observation.threads,
            peakConcurrent: observation.peak, waitedSeconds: waited, drained: drained)
    }
}
