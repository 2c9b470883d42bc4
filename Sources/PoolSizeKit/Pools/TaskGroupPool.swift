import Dispatch
import PoolSizeModel

/// Swift concurrency: one driver task runs a task group that keeps at most N child tasks in
/// flight, fed from an AsyncStream. Child tasks run on the cooperative pool, which is only as
/// wide as the CPU count; blocking work inside it starves the pool (docs/platform.md), so this kind
/// typically reaches no more than `cores` concurrent tasks whatever N is, and the trial's
/// recorded concurrency shows it.
package final class TaskGroupPool: WorkerPool {
    package let kind = PoolKind.taskGroup
    package let size: Int
    package let qos: QoSTier
    private let continuation: AsyncStream<@Sendable () -> Void>.Continuation
    private let done = DispatchSemaphore(value: 0)

    package init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "a task group needs at least one child in flight")
        self.size = size
        self.qos = qos
        let (stream, continuation) = AsyncStream<@Sendable () -> Void>.makeStream()
        self.continuation = continuation
        let done = self.done
        Task.detached(priority: qos.taskPriority) {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await work in stream {
                    if running == size {
                        await group.next()
                        running -= 1
                    }
                    group.addTask(priority: qos.taskPriority) { work() }
                    running += 1
                }
                await group.waitForAll()
            }
            done.signal()
        }
    }

    package func submit(_ work: @escaping @Sendable () -> Void) {
        continuation.yield(work)
    }

    package func shutdown() {
        continuation.finish()
        done.wait()
    }
}
