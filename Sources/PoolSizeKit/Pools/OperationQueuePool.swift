import Foundation
import PoolSizeModel

/// Foundation's `OperationQueue` with `maxConcurrentOperationCount` = N and the tier's
/// `qualityOfService`.
public final class OperationQueuePool: WorkerPool, @unchecked Sendable {
    // @unchecked: OperationQueue is thread-safe but not annotated Sendable in corelibs-foundation.
    public let kind = PoolKind.operationQueue
    public let size: Int
    public let qos: QoSTier
    private let queue = OperationQueue()

    public init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "an operation queue needs a concurrency of at least one")
        self.size = size
        self.qos = qos
        queue.name = "poolsize.operation-queue"
        queue.maxConcurrentOperationCount = size
        queue.qualityOfService = qos.qualityOfService
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        queue.addOperation(work)
    }

    public func shutdown() {
        queue.waitUntilAllOperationsAreFinished()
    }
}

extension QoSTier {
    /// Foundation's QualityOfService for this tier.
    public var qualityOfService: QualityOfService {
        switch self {
        case .userInteractive: return .userInteractive
        case .userInitiated: return .userInitiated
        case .default: return .default
        case .utility: return .utility
        case .background: return .background
        }
    }

    /// Swift concurrency's task priority for this tier.
    public var taskPriority: TaskPriority {
        switch self {
        case .userInteractive, .userInitiated: return .high
        case .default: return .medium
        case .utility: return .utility
        case .background: return .background
        }
    }
}
