import PoolSizeModel

/// A pool that chooses its own size while it runs (`AdaptiveQueuePool`): a trial plans its load
/// for the pool's maximum and records the sizes it chose.
package protocol ResizingPool: WorkerPool {
    /// Most queues the pool may have: the size a sweep's trial is planned for.
    var maximum: Int { get }
    /// The sizes it chose so far, with each window's throughput.
    var steps: [SizeStep] { get }
}

extension AdaptiveQueuePool: ResizingPool {}

extension WorkerPool {
    /// The size a trial plans its tasks for: the pool's size, or a resizing pool's maximum.
    package var plannedSize: Int { (self as? any ResizingPool)?.maximum ?? size }
    /// The sizes a resizing pool chose; empty for a pool of fixed size.
    package var sizeSteps: [SizeStep] { (self as? any ResizingPool)?.steps ?? [] }
}
