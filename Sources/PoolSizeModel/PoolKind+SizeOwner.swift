extension PoolKind {
    /// Who sets this pool's size during a trial; the shared stages ask this, never the kind.
    package var sizeOwner: SizeOwner {
        switch self {
        case .queuePool, .threadPool, .globalQueue, .operationQueue, .taskGroup: return .sweep
        case .adaptive: return .pool
        case .server: return .command
        }
    }
}
