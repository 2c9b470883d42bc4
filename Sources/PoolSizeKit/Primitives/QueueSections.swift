import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

// Primitives built on dispatch queues.

final class SerialQueueSection: GuardedSection {
    let kind = PrimitiveKind.serialQueue
    let monitor = IntegrityMonitor()
    private let queue = DispatchQueue(label: "poolsize.primitive.serial-queue")
    func enter(task: UInt64, _ body: () -> Void) { queue.sync { monitor.write(body) } }
}

/// Reader–writer exclusion with libdispatch: reads run concurrently with `sync`, writes with a
/// barrier, which waits for running readers and holds later ones back.
final class BarrierSection: GuardedSection {
    let kind = PrimitiveKind.barrier
    let monitor = IntegrityMonitor()
    let reads: ReadSelector
    private let queue = DispatchQueue(label: "poolsize.primitive.barrier", attributes: .concurrent)
    init(reads: ReadSelector) { self.reads = reads }
    func enter(task: UInt64, _ body: () -> Void) {
        if reads.isRead(task) {
            queue.sync { monitor.read(body) }
        } else {
            queue.sync(flags: .barrier) { monitor.write(body) }
        }
    }
}
