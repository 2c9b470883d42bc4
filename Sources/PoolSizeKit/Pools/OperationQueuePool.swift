import Foundation
import PoolSizeModel

/// Foundation's `OperationQueue` with `maxConcurrentOperationCount` = N and the tier's
/// `qualityOfService`.
package final class OperationQueuePool: WorkerPool, @unchecked Sendable {
    // @unchecked: OperationQueue is thread-safe but not annotated Sendable in corelibs-foundation.
    package let kind = PoolKind.operationQueue
    package let size: Int
    package let qos: QoSTier
    private let queue = OperationQueue()

    package init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "an operation queue needs a concurrency of at least one")
        self.size = size
        self.qos = qos
        queue.name = "poolsize.operation-queue"
        queue.maxConcurrentOperationCount = size
        queue.qualityOfService = qos.qualityOfService
    }

    package func submit(_ work: @escaping @Sendable () -> Void) {
        queue.addOperation(work)
    }

    package func shutdown() {
        queue.waitUntilAllOperationsAreFinished()
    }
}

extension QoSTier {
    /// Foundation's QualityOfService for this tier.
    package var qualityOfService: QualityOfService {
        choose(.userInteractive, .userInitiated, .default, .utility, .background)
    }

    /// Swift concurrency's task priority for this tier.
    package var taskPriority: TaskPriority {
        choose(.high, .high, .medium, .utility, .background)
    }
}
