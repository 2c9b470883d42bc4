import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// Test-and-test-and-set: spin on a plain load (stays in the local cache) and only try the
/// exchange when the lock looks free; back off exponentially, then yield the CPU, so a
/// preempted holder on an oversubscribed machine gets to run (Herlihy & Shavit, *The Art of
/// Multiprocessor Programming*, §7.4).
final class SpinlockSection: GuardedSection {
    let kind = PrimitiveKind.spinlock
    let monitor = IntegrityMonitor()
    private let locked = Atomic<Bool>(false)
    func enter(task: UInt64, _ body: () -> Void) {
        var backoff = 1
        while true {
            while locked.load(ordering: .relaxed) {
                if backoff >= 1024 { sched_yield() } else { for _ in 0..<backoff { spinHint() } }
                backoff = min(backoff * 2, 1024)
            }
            if !locked.exchange(true, ordering: .acquiring) { break }
        }
        monitor.write(body)
        locked.store(false, ordering: .releasing)
    }

    @inline(never) private func spinHint() {}
}
