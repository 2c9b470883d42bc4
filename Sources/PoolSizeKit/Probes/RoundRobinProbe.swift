import Dispatch
import PoolSizeModel
import Synchronization

/// Submits tasks through a `QueuePool`'s round-robin from several threads at once and counts
/// the tasks each queue ran, identifying the queue from inside the task (queue-specific data).
package struct RoundRobinProbe: ObservingProbe {
    package let name = ProbeName.roundRobin
    package var queues = 8
    package var submitters = 4
    package var tasksPerSubmitter = 500
    package var timeoutSeconds = 5.0

    package func observe() -> RoundRobinObservation {
        let pool = QueuePool(size: queues, label: "poolsize.probe.round-robin")
        let key = DispatchSpecificKey<Int>()
        for (index, queue) in pool.queues.enumerated() { queue.setSpecific(key: key, value: index) }
        let counts = Counts(queues: queues)
        let tasks = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let deadline = DispatchTime.now() + timeoutSeconds
        let threads = (0..<submitters).compactMap { _ in
            PosixThread.spawn { [tasksPerSubmitter] in
                // All submitters start together, so their tickets interleave.
                if go.wait(timeout: deadline) == .success {
                    for _ in 0..<tasksPerSubmitter {
                        tasks.enter()
                        pool.submit {
                            if let index = DispatchQueue.getSpecific(key: key) { counts.add(index) }
                            tasks.leave()
                        }
                    }
                }
                finished.signal()
            }
        }
        for _ in threads { go.signal() }
        let joined = PosixThread.join(threads, finished: finished, timeout: timeoutSeconds)
        if joined { _ = tasks.wait(timeout: deadline) }
        return RoundRobinObservation(
            submitters: threads.count, submitted: submitters * tasksPerSubmitter, countsPerQueue: counts.snapshot)
    }

    private final class Counts: Sendable {
        let values: Mutex<[Int]>
        init(queues: Int) { values = Mutex(Array(repeating: 0, count: queues)) }
        func add(_ index: Int) { values.withLock { $0[index] += 1 } }
        var snapshot: [Int] { values.withLock { $0 } }
    }
}
