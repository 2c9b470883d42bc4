import Dispatch
import PoolSizeModel
import Synchronization

/// The pool the project grew out of (the YYDispatchQueuePool pattern, docs/platform.md): N serial
/// DispatchQueues created with one QoS, handed out round-robin from an atomic counter.
///
/// One serial queue runs one block at a time, so N queues bound the threads the pool can keep
/// busy, and callers cannot cause thread explosion by making a queue per task. The counter
/// wraps on overflow (`wrappingAdd` on an unsigned value): it never traps and an index computed
/// from it is never negative.
public final class QueuePool: WorkerPool {
    /// Always `.queuePool`.
    public let kind = PoolKind.queuePool
    /// The tier every queue was created with.
    public let qos: QoSTier
    /// The pool's serial queues, in round-robin order.
    public let queues: [DispatchQueue]
    private let counter: Atomic<UInt>

    /// - Parameter startingCounter: where round-robin starts; tests use it to cross the
    ///   counter's overflow.
    public init(size: Int, qos: QoSTier = .default, label: String = "poolsize.queue-pool", startingCounter: UInt = 0) {
        precondition(size >= 1, "a queue pool needs at least one queue")
        self.qos = qos
        self.queues = (0..<size).map { index in
            DispatchQueue(label: "\(label).\(qos.rawValue).\(index)", qos: qos.dispatchQoS)
        }
        self.counter = Atomic(startingCounter)
    }

    /// The number of queues.
    public var size: Int { queues.count }

    /// The next queue in round-robin order (the original pool's only operation).
    public func next() -> DispatchQueue {
        let ticket = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return queues[Int(ticket % UInt(queues.count))]
    }

    /// Runs `work` on the next queue, round-robin.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        next().async(execute: work)
    }

    /// Waits until every queue has run what was submitted to it.
    public func shutdown() {
        for queue in queues { queue.sync {} }
    }
}

extension QoSTier {
    /// The Dispatch QoS class for this tier.
    public var dispatchQoS: DispatchQoS {
        choose(.userInteractive, .userInitiated, .default, .utility, .background)
    }
}
