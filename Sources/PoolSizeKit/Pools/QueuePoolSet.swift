import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// The dispatch-queue pool as an app uses it: for each QoS tier, its own `QueuePool` of serial
/// queues, created the first time that tier is asked for and handed out round-robin.
///
/// ```swift
/// let pools = QueuePoolSet(counts: [.utility: 24])      // e.g. from poolsize's recommendation
/// pools.async(qos: .utility) { download(file) }
/// let queue = pools.queue(for: .userInitiated)          // a serial queue of that tier
/// ```
///
/// Serial queues of one tier share its threads in libdispatch; the count per tier bounds how
/// many of that tier's blocks can run at once, which is the number `poolsize sweep` measures.
public final class QueuePoolSet: Sendable {
    /// One set for the whole process, `defaultCount` queues per tier (the core count).
    public static let shared = QueuePoolSet()

    /// Queues per tier when `counts` does not name the tier: the active core count, as the
    /// original pool did.
    public let defaultCount: Int
    /// Queues per tier, for the tiers given explicitly.
    public let counts: [QoSTier: Int]
    private let label: String
    private let pools = Mutex<[QoSTier: QueuePool]>([:])

    /// - Parameters:
    ///   - counts: queues for particular tiers; each at least 1.
    ///   - defaultCount: queues for every other tier; at least 1.
    ///   - label: prefix of the queues' labels (`<label>.<tier>.<index>`), as seen in debuggers.
    public init(
        counts: [QoSTier: Int] = [:], defaultCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        label: String = "poolsize.pool"
    ) {
        precondition(defaultCount >= 1 && counts.values.allSatisfy { $0 >= 1 }, "every tier needs at least one queue")
        self.counts = counts
        self.defaultCount = defaultCount
        self.label = label
    }

    /// The queues a sweep recommended, for the tier it measured; other tiers keep `defaultCount`.
    public convenience init(
        recommendation: Recommendation, defaultCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        label: String = "poolsize.pool"
    ) {
        self.init(
            counts: [recommendation.qos: recommendation.recommendedQueueCount], defaultCount: defaultCount, label: label
        )
    }

    /// How many queues `qos` has (or will have once it is first used).
    public func count(for qos: QoSTier) -> Int {
        counts[qos] ?? defaultCount
    }

    /// The tier's pool, created on first use.
    public func pool(for qos: QoSTier) -> QueuePool {
        pools.withLock { pools in
            if let pool = pools[qos] { return pool }
            let pool = QueuePool(size: count(for: qos), qos: qos, label: label)
            pools[qos] = pool
            return pool
        }
    }

    /// The next serial queue of `qos`, round-robin.
    public func queue(for qos: QoSTier) -> DispatchQueue {
        pool(for: qos).next()
    }

    /// Runs `work` asynchronously on the next serial queue of `qos`.
    public func async(qos: QoSTier = .default, _ work: @escaping @Sendable () -> Void) {
        queue(for: qos).async(execute: work)
    }
}
