import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

// The two baselines: a lock-free atomic add, and no protection at all.

/// The lock-free baseline: the section's work runs unguarded and the shared count is one
/// atomic add. Its check is the atomic count against the sections run.
final class AtomicSection: GuardedSection {
    let kind = PrimitiveKind.atomic
    let monitor = IntegrityMonitor()
    func enter(task: UInt64, _ body: () -> Void) {
        body()
        monitor.atomicAdd()
    }
}

/// No protection at all, to prove the integrity check catches a race.
final class UnprotectedSection: GuardedSection {
    let kind = PrimitiveKind.unprotected
    let monitor = IntegrityMonitor()
    func enter(task: UInt64, _ body: () -> Void) { monitor.write(body) }
}
