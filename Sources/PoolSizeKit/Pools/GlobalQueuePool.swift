import Dispatch
import Foundation
import PoolSizeModel

/// `DispatchQueue.global(qos:)` with at most N tasks in flight, limited by a counting
/// semaphore. A feeder thread waits on the semaphore before dispatching each task, so callers
/// (including tasks that resubmit work) never block; completion signals it.
///
/// The global queue decides how many threads it really runs. On Linux libdispatch adds worker
/// threads slowly when they block (docs/platform.md), so this pool often cannot reach N for blocking
/// work; the trial records the concurrency it did reach.
package final class GlobalQueuePool: WorkerPool {
    package let kind = PoolKind.globalQueue
    package let size: Int
    package let qos: QoSTier
    private let slots: DispatchSemaphore
    private let pending = BlockingWorkQueue()
    private let feederDone = DispatchSemaphore(value: 0)
    private let inFlight = DispatchGroup()

    package init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "the in-flight cap must be at least one")
        self.size = size
        self.qos = qos
        slots = DispatchSemaphore(value: size)
        let thread = Thread { [self] in feed() }
        thread.name = "poolsize.global-queue.feeder"
        thread.start()
    }

    package func submit(_ work: @escaping @Sendable () -> Void) {
        pending.put(work)
    }

    package func shutdown() {
        pending.close()
        feederDone.wait()
        inFlight.wait()
    }

    private func feed() {
        let queue = DispatchQueue.global(qos: qos.dispatchQoS.qosClass)
        while let work = pending.take() {
            slots.wait()
            inFlight.enter()
            queue.async { [slots, inFlight] in
                work()
                slots.signal()
                inFlight.leave()
            }
        }
        feederDone.signal()
    }
}
