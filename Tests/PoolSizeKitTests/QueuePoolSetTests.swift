import Dispatch
import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

@Suite struct QueuePoolSetTests {
    @Test func eachTierHasItsOwnCountAndQueuesOfItsQoS() {
        let set = QueuePoolSet(counts: [.utility: 3], defaultCount: 2, label: "t")
        #expect(set.count(for: .utility) == 3)
        #expect(set.count(for: .background) == 2)
        let utility = (0..<6).map { _ in set.queue(for: .utility) }
        #expect(
            utility.map(\.label) == [
                "t.utility.0", "t.utility.1", "t.utility.2", "t.utility.0", "t.utility.1", "t.utility.2",
            ])
        #expect(utility.allSatisfy { $0.qos.qosClass == .utility })
        #expect(set.queue(for: .background).label == "t.background.0")
        #expect(set.pool(for: .utility) === set.pool(for: .utility))
    }

    @Test func countComesFromARecommendation() {
        var r = Recommendation(
            workload: "io", cores: 2, waitCPURatio: 15, waitCPURatioLower: nil, waitCPURatioUpper: nil,
            specWaitCPURatio: nil,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, targetUtilization: 1,
            formulaQueueCountExact: 32,
            formulaQueueCountStandardError: 0, formulaQueueCount: 32, recommendedQueueCount: 31,
            sizing: .knee(
                .init(
                    kneeQueueCount: 31, kneeThroughputPerSecond: 1900, peakQueueCount: 40,
                    peakThroughputPerSecond: 1990, tolerance: 0.05)),
            reason: "")
        r.qos = .utility
        let set = QueuePoolSet(recommendation: r, defaultCount: 4)
        #expect(set.count(for: .utility) == 31)
        #expect(set.count(for: .default) == 4)
    }

    /// Work given to a tier runs, each block once, and never more than the tier's count at once
    /// (serial queues).
    @Test func asyncRunsEveryBlockOnTheTiersQueues() {
        let set = QueuePoolSet(counts: [.default: 2], defaultCount: 1)
        let group = DispatchGroup()
        let tally = Tally()
        for _ in 0..<40 {
            group.enter()
            set.async(qos: .default) {
                tally.enter()
                SleepWaiter().wait(microseconds: 200)
                tally.leave()
                group.leave()
            }
        }
        group.wait()
        #expect(tally.total == 40)
        #expect(tally.peak <= 2)
    }
}

/// Tasks running now, at most and in all; NSLock so ThreadSanitizer sees the locking.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private var peakValue = 0
    private var totalValue = 0
    var peak: Int { lock.withLock { peakValue } }
    var total: Int { lock.withLock { totalValue } }
    func enter() {
        lock.withLock {
            now += 1; totalValue += 1; peakValue = max(peakValue, now)
        }
    }
    func leave() { lock.withLock { now -= 1 } }
}
