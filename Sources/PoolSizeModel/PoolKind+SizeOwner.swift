extension PoolKind {
    /// Who sets this pool's size during a trial; the shared stages ask this, never the kind.
    package var sizeOwner: SizeOwner {
        switch self {
        case .queuePool, .threadPool, .globalQueue, .operationQueue, .taskGroup: return .sweep
        case .adaptive: return .pool
        case .server, .loadTool: return .command
        }
    }

    /// Whether a trial measures the CPU the pool's tasks use (C per task, utilization): its own
    /// pools' threads and a server's processes do; a load tool run alone reports only what it
    /// prints (throughput, latency, errors), and the process it loads is not poolsize's.
    package var measuresTaskCPU: Bool {
        switch self {
        case .queuePool, .threadPool, .globalQueue, .operationQueue, .taskGroup, .adaptive, .server: return true
        case .loadTool: return false
        }
    }
}
