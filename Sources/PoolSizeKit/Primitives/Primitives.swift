import Dispatch
import Foundation
import PoolSizeModel
import Synchronization

/// A critical section guarded by one synchronization primitive, with the state it protects.
public protocol GuardedSection: CriticalSection {
    var kind: PrimitiveKind { get }
    var monitor: IntegrityMonitor { get }
}

extension GuardedSection {
    public func verify() -> IntegrityReport { monitor.verify() }
}

/// Builds the guarded section for a primitive; nil for `.none` (no critical section at all).
public enum PrimitiveFactory {
    /// - Parameter readRatio: share of sections that only read, for `barrier` and `rwlock`
    ///   (readers share the lock; every other primitive treats all sections as writes).
    public static func make(_ kind: PrimitiveKind, readRatio: Double = 0, seed: UInt64 = 1) -> (any GuardedSection)? {
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
public struct ReadSelector: Sendable {
    public let ratio: Double
    public let seed: UInt64

    public init(ratio: Double, seed: UInt64) {
        self.ratio = ratio
        self.seed = seed
    }

    public func isRead(_ task: UInt64) -> Bool {
        guard ratio > 0 else { return false }
        var state = seed ^ (task &* 0xD1B5_4A32_D192_ED03)
        return TaskTimes.unit(&state) < ratio
    }
}

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

final class SerialQueueSection: GuardedSection {
    let kind = PrimitiveKind.serialQueue
    let monitor = IntegrityMonitor()
    private let queue = DispatchQueue(label: "poolsize.primitive.serial-queue")
    func enter(task: UInt64, _ body: () -> Void) { queue.sync { monitor.write(body) } }
}

/// Reader–writer exclusion with libdispatch: reads run concurrently with `sync`, writes with a
/// barrier, which waits for running readers and holds later ones back.
final class BarrierSection: GuardedSection {
    let kind = PrimitiveKind.barrier
    let monitor = IntegrityMonitor()
    let reads: ReadSelector
    private let queue = DispatchQueue(label: "poolsize.primitive.barrier", attributes: .concurrent)
    init(reads: ReadSelector) { self.reads = reads }
    func enter(task: UInt64, _ body: () -> Void) {
        if reads.isRead(task) {
            queue.sync { monitor.read(body) }
        } else {
            queue.sync(flags: .barrier) { monitor.write(body) }
        }
    }
}

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
