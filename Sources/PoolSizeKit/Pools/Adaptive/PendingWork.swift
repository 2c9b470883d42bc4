import Synchronization

/// What the queues of an `AdaptiveQueuePool` share: one FIFO of submitted work, the most tasks it
/// held in the current window, and how often a task is timed.
///
/// Work waits here rather than on a serial queue: a queue added to a starved pool can then take
/// the work already waiting at once, where work bound to a queue at submission would wait for
/// the (blocked) queue it was given. Every submission puts one item here and hands one token to a
/// queue round-robin; a queue running a token takes the oldest item. Growth adds a token per new
/// queue, so tokens are never fewer than items and no item is left behind.
package final class PendingWork: Sendable {
    private struct Ring {
        var items: [(@Sendable () -> Void)?] = Array(repeating: nil, count: 64)
        var head = 0
        var count = 0
        var peak = 0

        mutating func push(_ work: @escaping @Sendable () -> Void) {
            if count == items.count {
                // Unroll the ring into a buffer twice as large.
                items = Array(items[head...] + items[..<head]) + Array(repeating: nil, count: items.count)
                head = 0
            }
            items[(head + count) & (items.count - 1)] = work
            count += 1
            if count > peak { peak = count }
        }

        mutating func pop() -> (@Sendable () -> Void)? {
            guard count > 0 else { return nil }
            let work = items[head]
            items[head] = nil
            head = (head + 1) & (items.count - 1)
            count -= 1
            return work
        }
    }

    private let ring = Mutex(Ring())
    /// A queue times every `sampleEvery`-th task it runs (thread CPU, run-queue and wall time).
    package let sampleEvery = Atomic<Int>(1)

    /// An empty FIFO.
    package init() {}

    /// Adds `work` at the end.
    package func push(_ work: @escaping @Sendable () -> Void) {
        ring.withLock { $0.push(work) }
    }

    /// The oldest item; nil when none waits.
    package func pop() -> (@Sendable () -> Void)? {
        ring.withLock { $0.pop() }
    }

    /// Items waiting now.
    package var count: Int { ring.withLock { $0.count } }

    /// The most items that waited at once since the last call; starts the next count from now.
    package func takePeak() -> Int {
        ring.withLock { ring in
            defer { ring.peak = ring.count }
            return ring.peak
        }
    }
}
