import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

// Primitives that are plain exclusive locks: each wraps the monitor's write in lock/unlock.

final class MutexSection: GuardedSection {
    let kind = PrimitiveKind.mutex
    let monitor = IntegrityMonitor()
    private let lock = Mutex<Void>(())
    func enter(task: UInt64, _ body: () -> Void) { lock.withLock { _ in monitor.write(body) } }
}

final class PthreadMutexSection: GuardedSection, @unchecked Sendable {
    let kind = PrimitiveKind.pthreadMutex
    let monitor = IntegrityMonitor()
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func enter(task: UInt64, _ body: () -> Void) {
        pthread_mutex_lock(mutex)
        monitor.write(body)
        pthread_mutex_unlock(mutex)
    }
}

/// Takes the lock twice, as recursive code paths do, to exercise the recursion count.
final class RecursiveLockSection: GuardedSection, @unchecked Sendable {
    let kind = PrimitiveKind.recursiveMutex
    let monitor = IntegrityMonitor()
    private let lock = NSRecursiveLock()
    func enter(task: UInt64, _ body: () -> Void) {
        lock.lock()
        lock.lock()
        monitor.write(body)
        lock.unlock()
        lock.unlock()
    }
}

final class NSLockSection: GuardedSection, @unchecked Sendable {
    let kind = PrimitiveKind.nslock
    let monitor = IntegrityMonitor()
    private let lock = NSLock()
    func enter(task: UInt64, _ body: () -> Void) {
        lock.lock()
        monitor.write(body)
        lock.unlock()
    }
}

final class NSConditionSection: GuardedSection, @unchecked Sendable {
    let kind = PrimitiveKind.nscondition
    let monitor = IntegrityMonitor()
    private let condition = NSCondition()
    func enter(task: UInt64, _ body: () -> Void) {
        condition.lock()
        monitor.write(body)
        condition.unlock()
    }
}

final class SemaphoreSection: GuardedSection {
    let kind = PrimitiveKind.semaphore
    let monitor = IntegrityMonitor()
    private let semaphore = DispatchSemaphore(value: 1)
    func enter(task: UInt64, _ body: () -> Void) {
        semaphore.wait()
        monitor.write(body)
        semaphore.signal()
    }
}
