import PoolSizeModel

/// Builds the executor of a kind, size and tier.
public enum PoolFactory {
    public static func make(_ kind: PoolKind, size: Int, qos: QoSTier) -> any Executor {
        switch kind {
        case .queuePool: return QueuePool(size: size, qos: qos)
        case .threadPool: return ThreadPool(size: size, qos: qos)
        case .globalQueue: return GlobalQueuePool(size: size, qos: qos)
        case .operationQueue: return OperationQueuePool(size: size, qos: qos)
        case .taskGroup: return TaskGroupPool(size: size, qos: qos)
        }
    }
}
