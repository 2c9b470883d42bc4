import PoolSizeModel

/// Something that runs submitted work on some number of threads: the pool under test. Your own
/// pool can be swept by conforming to it and returning it from a `PoolFactory`.
public protocol WorkerPool: Sendable {
    /// The kind recorded for its trials.
    var kind: PoolKind { get }
    /// The size the pool was built with (queues, threads or the in-flight cap).
    var size: Int { get }
    /// Runs `work` on one of the pool's threads, later.
    func submit(_ work: @escaping @Sendable () -> Void)
    /// Waits for all submitted work to finish, then releases the pool's threads.
    func shutdown()
}
