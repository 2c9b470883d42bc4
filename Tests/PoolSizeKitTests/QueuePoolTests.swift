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
        for _ in 0..<(size * 12) {
            group.enter()
            pool.submit {
                gauge.enter()
                SleepWaiter().wait(microseconds: 2_000)
                gauge.leave()
                group.leave()
            }
        }
        group.wait()
        pool.shutdown()
        #expect(gauge.peak.load(ordering: .relaxed) <= size)
        #expect(gauge.peak.load(ordering: .relaxed) >= 1)
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

    func enter() {
        let now = current.wrappingAdd(1, ordering: .relaxed).newValue
        peak.max(now, ordering: .relaxed)
    }

    func leave() { current.wrappingSubtract(1, ordering: .relaxed) }
}
