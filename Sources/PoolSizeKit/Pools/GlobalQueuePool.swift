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
public final class GlobalQueuePool: WorkerPool {
    public let kind = PoolKind.globalQueue
    public let size: Int
    public let qos: QoSTier
    private let slots: DispatchSemaphore
    private let pending = BlockingWorkQueue()
    private let feederDone = DispatchSemaphore(value: 0)
    private let inFlight = DispatchGroup()

    public init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "the in-flight cap must be at least one")
        self.size = size
        self.qos = qos
        slots = DispatchSemaphore(value: size)
        let thread = Thread { [self] in feed() }
        thread.name = "poolsize.global-queue.feeder"
        thread.start()
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        pending.put(work)
    }

    public func shutdown() {
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
