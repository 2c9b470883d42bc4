import Foundation
import Dispatch
import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

@Suite struct QueuePoolTests {
    /// 1000 hand-outs over 7 queues: 1000 = 7 × 142 + 6, so six queues get 143 and one 142.
    @Test func roundRobinIsFair() {
        let pool = QueuePool(size: 7)
        var counts: [String: Int] = [:]
        for _ in 0..<1000 { counts[pool.next().label, default: 0] += 1 }
        #expect(counts.count == 7)
        #expect(counts.values.sorted() == [142, 143, 143, 143, 143, 143, 143])
    }

    @Test func roundRobinVisitsQueuesInOrder() {
        let pool = QueuePool(size: 3)
        let labels = (0..<6).map { _ in pool.next().label }
        #expect(labels == pool.queues.map(\.label) + pool.queues.map(\.label))
    }

    /// The counter wraps instead of trapping, and the index stays in range across the wrap.
    @Test func counterOverflowNeitherTrapsNorGoesNegative() {
        let pool = QueuePool(size: 3, startingCounter: UInt.max - 2)
        let labels = (0..<6).map { _ in pool.next().label }
        #expect(labels.count == 6)
        #expect(Set(labels).count == 3)
        // UInt.max = 2^64 − 1 ≡ 0 (mod 3), so the tickets max−2, max−1, max, 0, 1, 2 map to 1, 2, 0, 0, 1, 2.
        let q = pool.queues.map(\.label)
        #expect(labels == [q[1], q[2], q[0], q[0], q[1], q[2]])
    }

    /// N serial queues never run more than N tasks at once, whatever is submitted.
    @Test(arguments: [1, 3, 8])
    func neverRunsMoreThanNAtOnce(size: Int) {
        let pool = QueuePool(size: size)
        let gauge = ConcurrencyGauge()
        let group = DispatchGroup()
        let rendezvous = Rendezvous(count: size)
        for _ in 0..<(size * 12) {
            group.enter()
            pool.submit {
                gauge.enter()
                rendezvous.arrive()
                SleepWaiter().wait(microseconds: 2_000)
                gauge.leave()
                group.leave()
            }
        }
        group.wait()
        pool.shutdown()
        // Round-robin puts the first N tasks on N different queues, and they really run at once.
        #expect(gauge.peak.load(ordering: .relaxed) == size)
        #expect(gauge.total.load(ordering: .relaxed) == size * 12)
    }

    @Test func queuesCarryTheirTier() {
        let pool = QueuePool(size: 2, qos: .utility)
        #expect(pool.queues.allSatisfy { $0.qos == .utility })
        #expect(pool.queues[0].label == "poolsize.queue-pool.utility.0")
    }
}

final class ConcurrencyGauge: Sendable {
    let current = Atomic<Int>(0)
    let peak = Atomic<Int>(0)
    /// Tasks that entered, in all.
    let total = Atomic<Int>(0)

    func enter() {
        let now = current.wrappingAdd(1, ordering: .relaxed).newValue
        peak.max(now, ordering: .relaxed)
        total.wrappingAdd(1, ordering: .relaxed)
    }

    func leave() { current.wrappingSubtract(1, ordering: .relaxed) }
}

/// The first `count` arrivals wait for one another (up to 10 s), so a pool that can run
/// `count` tasks at once is seen running exactly that many, however slow the machine; later
/// arrivals pass straight through.
final class Rendezvous: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(count: Int) { self.count = count }

    func arrive() {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        guard arrived <= count else { return }
        if arrived == count { condition.broadcast(); return }
        let deadline = Date().addingTimeInterval(10)
        while arrived < count && condition.wait(until: deadline) {}
    }
}
