import Synchronization

/// The work handed to one queue of an `AdaptiveQueuePool` and not yet begun, and the most it
/// held in the current window.
///
/// Work waits here rather than inside the serial queue: each submission puts one item here and
/// one token on the queue, and a token takes the oldest item. So when the pool grows, work
/// already waiting on its queues can be dealt to the new queues (with a token each) and start at
/// once, where a block bound to a blocked queue would wait for it however many queues were
/// added. Tokens are never fewer than items, so no item is left behind; a token that finds
/// nothing returns. One FIFO per queue rather than one for the pool, under a spinlock rather than
/// a `Mutex`: every task takes the lock twice, from two threads when round-robin hands the next
/// task to another queue, and a contended `Mutex` (a priority-inheritance futex on Linux) costs a
/// system call where a few spins suffice for a section of a few stores (Herlihy & Shavit, *The
/// Art of Multiprocessor Programming*, §7.4: test-and-test-and-set with back-off, then yield so a
/// preempted holder gets to run).
package final class PendingWork: @unchecked Sendable {
    // @unchecked: `ring` is only touched with `locked` held (`withLock`).
    /// One waiting task. A struct field keeps the closure as it is: a bare function value in a
    /// generic container (an array's element) is re-wrapped in a thunk, an allocation, on every
    /// store and load.
    private struct Item {
        let work: @Sendable () -> Void
    }

    private struct Ring {
        var items: [Item?] = Array(repeating: nil, count: 64)
        var head = 0
        var count = 0
        var peak = 0

        mutating func push(_ work: @escaping @Sendable () -> Void) {
            if count == items.count {
                // Unroll the ring into a buffer twice as large.
                items = Array(items[head...] + items[..<head]) + Array(repeating: nil, count: items.count)
                head = 0
            }
            items[(head + count) & (items.count - 1)] = Item(work: work)
            count += 1
            if count > peak { peak = count }
        }

        mutating func pop() -> (@Sendable () -> Void)? {
            guard count > 0 else { return nil }
            let item = items[head]
            items[head] = nil
            head = (head + 1) & (items.count - 1)
            count -= 1
            return item?.work
        }
    }

    // The lock guarantees exclusive access: the runtime check each access would cost is skipped.
    @exclusivity(unchecked) nonisolated(unsafe) private var ring = Ring()
    private let locked = Atomic<Bool>(false)

    /// An empty FIFO.
    package init() {}

    /// Adds `work` at the end.
    package func push(_ work: @escaping @Sendable () -> Void) {
        withLock { $0.push(work) }
    }

    /// The oldest item; nil when none waits.
    package func pop() -> (@Sendable () -> Void)? {
        withLock { $0.pop() }
    }

    /// Items waiting now.
    package var count: Int { withLock { $0.count } }

    /// Takes every waiting item, oldest first.
    package func takeAll() -> [@Sendable () -> Void] {
        withLock { ring in
            var items: [@Sendable () -> Void] = []
            while let work = ring.pop() { items.append(work) }
            return items
        }
    }

    /// The most items that waited at once since the last call; starts the next count from now.
    package func takePeak() -> Int {
        withLock { ring in
            defer { ring.peak = ring.count }
            return ring.peak
        }
    }

    @inline(__always)
    private func withLock<T>(_ body: (inout Ring) -> T) -> T {
        locked.acquireSpinning(yieldAt: 256)
        defer { locked.store(false, ordering: .releasing) }
        return body(&ring)
    }
}
