import Foundation
import PoolSizeModel

/// N plain threads taking work from one shared FIFO guarded by a condition variable: the
/// classic fixed-size pool (Java's `newFixedThreadPool`). Threads set the nice value
/// libdispatch would give the tier, so tiers compare across pool kinds; whether the kernel
/// accepted it shows in the recorded `effective_nice`.
package final class ThreadPool: WorkerPool {
    package let kind = PoolKind.threadPool
    package let size: Int
    package let qos: QoSTier
    private let work = BlockingWorkQueue()
    private let finished = DispatchGroup()

    package init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "a thread pool needs at least one thread")
        self.size = size
        self.qos = qos
        for index in 0..<size {
            finished.enter()
            // Named from the thread itself, where Foundation also names it for the system
            // (comm, 15 bytes): what `observe` and a server sweep tell the pool's threads by.
            let thread = Thread { [self] in
                Thread.current.name = "pool-worker-\(index)"
                worker()
            }
            thread.start()
        }
    }

    package func submit(_ work: @escaping @Sendable () -> Void) {
        self.work.put(work)
    }

    /// Lets the workers finish everything queued, then ends them.
    package func shutdown() {
        work.close()
        finished.wait()
    }

    private func worker() {
        WorkerThread.setNice(qos.requestedNice)
        while let item = work.take() { item() }
        finished.leave()
    }
}
