import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

final class RWLockSection: GuardedSection, @unchecked Sendable {
    let kind = PrimitiveKind.rwlock
    let monitor = IntegrityMonitor()
    let reads: ReadSelector
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    init(reads: ReadSelector) {
        self.reads = reads
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }
    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }
    func enter(task: UInt64, _ body: () -> Void) {
        if reads.isRead(task) {
            pthread_rwlock_rdlock(lock)
            monitor.read(body)
        } else {
            pthread_rwlock_wrlock(lock)
            monitor.write(body)
        }
        pthread_rwlock_unlock(lock)
    }
}
