import PoolSizeModel

/// Something that runs submitted work on some number of threads: the pool under test.
/// A protocol so trials can be exercised with an inline fake (STYLE.md §4).
public protocol Executor: Sendable {
    var kind: PoolKind { get }
    /// The size the pool was built with (queues, threads or the in-flight cap).
    var size: Int { get }
    func submit(_ work: @escaping @Sendable () -> Void)
    /// Releases the pool's threads after all submitted work has finished.
    func shutdown()
}
