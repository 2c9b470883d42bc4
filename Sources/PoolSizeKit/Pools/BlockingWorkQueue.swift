import Foundation

/// An unbounded FIFO of work items that consumers block on, closed once to let them drain and
/// finish. The thread pool's workers and the global-queue pool's feeder take from it.
final class BlockingWorkQueue: @unchecked Sendable {
    // @unchecked: `items`, `head` and `closed` are only touched with `condition` held.
    private let condition = NSCondition()
    private var items: [@Sendable () -> Void] = []
    private var head = 0
    private var closed = false

    func put(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        items.append(work)
        condition.signal()
        condition.unlock()
    }

    /// The next item, waiting for one; nil once the queue is closed and drained.
    func take() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let work = items[head]
        head += 1
        // Drop taken items in bulk rather than shifting the array on every take.
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return work
    }

    /// No more items will come: blocked consumers wake, drain what is left, then get nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
