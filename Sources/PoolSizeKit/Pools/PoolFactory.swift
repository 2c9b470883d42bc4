import Foundation
import PoolSizeModel

/// Builds the pool a trial measures. The sweep asks for one per trial; tests and library users
/// inject their own.
public protocol PoolFactory: Sendable {
    func make(_ kind: PoolKind, size: Int, qos: QoSTier) -> any WorkerPool
}

/// The pools poolsize measures: each `PoolKind` built as its documentation says.
public struct SystemPoolFactory: PoolFactory {
    /// Cores an adaptive pool's formula sizes for; nil for the active processor count.
    package var cores: Int?

    /// The standard pools.
    public init() {}

    /// The standard pools, an adaptive one sizing for `cores` (a sweep's `--cores`).
    package init(cores: Int?) { self.cores = cores }

    /// The pool of `kind`, `size` and `qos`.
    public func make(_ kind: PoolKind, size: Int, qos: QoSTier) -> any WorkerPool {
        switch kind {
        case .queuePool: return QueuePool(size: size, qos: qos)
        case .threadPool: return ThreadPool(size: size, qos: qos)
        case .globalQueue: return GlobalQueuePool(size: size, qos: qos)
        case .operationQueue: return OperationQueuePool(size: size, qos: qos)
        case .taskGroup: return TaskGroupPool(size: size, qos: qos)
        case .adaptive:
            let cores = cores ?? ProcessInfo.processInfo.activeProcessorCount
            return AdaptiveQueuePool(minimum: 1, maximum: size, qos: qos, cores: cores)
        case .server, .loadTool:
            // `Sweep.run` refuses a plan with them before any pool is asked for.
            preconditionFailure("a server's or a load tool's pool is not poolsize's; its trials are its measurer's")
        }
    }
}
