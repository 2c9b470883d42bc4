import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// A test-and-test-and-set spinlock (`Atomic.acquireSpinning`).
final class SpinlockSection: GuardedSection {
    let kind = PrimitiveKind.spinlock
    let monitor = IntegrityMonitor()
    private let locked = Atomic<Bool>(false)
    func enter(task: UInt64, _ body: () -> Void) {
        locked.acquireSpinning(yieldAt: 1024)
        monitor.write(body)
        locked.store(false, ordering: .releasing)
    }
}
