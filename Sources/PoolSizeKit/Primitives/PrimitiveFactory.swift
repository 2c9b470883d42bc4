import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// A critical section guarded by one synchronization primitive, with the state it protects.
package protocol GuardedSection: CriticalSection {
    var kind: PrimitiveKind { get }
    var monitor: IntegrityMonitor { get }
}

extension GuardedSection {
    package func verify() -> IntegrityReport { monitor.verify() }
}

/// Builds the guarded section for a primitive; nil for `.none` (no critical section at all).
package enum PrimitiveFactory {
    /// - Parameter readRatio: share of sections that only read, for `barrier` and `rwlock`
    ///   (readers share the lock; every other primitive treats all sections as writes).
    package static func make(_ kind: PrimitiveKind, readRatio: Double = 0, seed: UInt64 = 1) -> (any GuardedSection)? {
        let reads = ReadSelector(ratio: readRatio, seed: seed)
        switch kind {
        case .none: return nil
        case .mutex: return MutexSection()
        case .pthreadMutex: return PthreadMutexSection()
        case .recursiveMutex: return RecursiveLockSection()
        case .nslock: return NSLockSection()
        case .nscondition: return NSConditionSection()
        case .semaphore: return SemaphoreSection()
        case .serialQueue: return SerialQueueSection()
        case .barrier: return BarrierSection(reads: reads)
        case .rwlock: return RWLockSection(reads: reads)
        case .spinlock: return SpinlockSection()
        case .atomic: return AtomicSection()
        case .unprotected: return UnprotectedSection()
        }
    }
}

/// Decides per task whether a section only reads: a seeded function of the task index.
package struct ReadSelector: Sendable {
    package let ratio: Double
    package let seed: UInt64

    package init(ratio: Double, seed: UInt64) {
        self.ratio = ratio
        self.seed = seed
    }

    package func isRead(_ task: UInt64) -> Bool {
        guard ratio > 0 else { return false }
        var generator = SeededGenerator(seed: seed ^ (task &* 0xD1B5_4A32_D192_ED03))
        return generator.nextUnit() < ratio
    }
}
