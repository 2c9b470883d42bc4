import Foundation
import Synchronization

/// An unbounded FIFO of work items that consumers block on, closed once to let them drain and
/// finish. The thread pool's workers and the global-queue pool's feeder take from it.
final class BlockingWorkQueue: @unchecked Sendable {
    // @unchecked: `items`, `head`, `waiting` and `closed` are only touched with `condition` held.
    private let condition = NSCondition()
    private var items: [@Sendable () -> Void] = []
    private var head = 0
    private var waiting = 0
    private var closed = false
    /// Items queued plus consumers waiting, written with `condition` held and readable without
    /// it (`isQuiet`).
    private let pending = Atomic<Int>(0)

    func put(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        items.append(work)
        publish()
        condition.signal()
        condition.unlock()
    }

    /// The next item, waiting for one; nil once the queue is closed and drained.
    func take() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed {
            waiting += 1
            publish()
            condition.wait()
            waiting -= 1
        }
        guard head < items.count else {
            publish()
            return nil
        }
        let work = items[head]
        head += 1
        // Drop taken items in bulk rather than shifting the array on every take.
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        publish()
        return work
    }

    /// Nothing queued and no consumer waiting, as last seen: a hint read without the lock, which
    /// a concurrent `put` or `take` may change at once.
    var isQuiet: Bool { queuedOrWaiting == 0 }

    /// Items queued plus consumers waiting, as last seen.
    var queuedOrWaiting: Int { pending.load(ordering: .relaxed) }

    /// No more items will come: blocked consumers wake, drain what is left, then get nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func publish() { pending.store(items.count - head + waiting, ordering: .relaxed) }
}
