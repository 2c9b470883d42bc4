import Foundation
import PoolSizeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// N plain threads taking work from one shared FIFO guarded by a condition variable: the
/// classic fixed-size pool (Java's `newFixedThreadPool`). Threads set the nice value
/// libdispatch would give the tier, so tiers compare across pool kinds; whether the kernel
/// accepted it shows in the recorded `effective_nice`.
///
/// A task's successor handed over as the task's last act (`submitFollowing`, the closed loop's
/// chains) runs next on the same worker when nothing is queued and no worker waits, without the
/// shared lock: no other worker could have started it sooner, and the lock, taken twice per task
/// by every worker, would otherwise put workers to sleep on it whenever its holder is preempted,
/// many times a second when the threads outnumber the cores.
package final class ThreadPool: WorkerPool {
    package let kind = PoolKind.threadPool
    package let size: Int
    package let qos: QoSTier
    private let work = BlockingWorkQueue()
    private let finished = DispatchGroup()

    package init(size: Int, qos: QoSTier = .default) {
        precondition(size >= 1, "a thread pool needs at least one thread")
        self.size = size
        self.qos = qos
        for index in 0..<size {
            finished.enter()
            // Named from the thread itself, where Foundation also names it for the system
            // (comm, 15 bytes): what `observe` and a server sweep tell the pool's threads by.
            let thread = Thread { [self] in
                Thread.current.name = "pool-worker-\(index)"
                worker()
            }
            thread.start()
        }
    }

    package func submit(_ work: @escaping @Sendable () -> Void) {
        self.work.put(work)
    }

    /// Submits `work` as the calling task's last act: on one of this pool's workers, while
    /// nothing is queued and no worker waits, it runs next on this worker (in the order a FIFO
    /// would give it); otherwise it is queued as by `submit`. A task that goes on running, or
    /// waits for `work`, must use `submit`.
    package func submitFollowing(_ work: @escaping @Sendable () -> Void) {
        if let raw = pthread_getspecific(Self.workerKey) {
            let local = Unmanaged<WorkerLocal>.fromOpaque(raw).takeUnretainedValue()
            if local.pool == ObjectIdentifier(self) && local.next == nil && self.work.isQuiet {
                local.next = work
                return
            }
        }
        self.work.put(work)
    }

    /// Work items queued plus workers waiting for one, as last seen.
    package var queuedOrWaiting: Int { work.queuedOrWaiting }

    /// Lets the workers finish everything queued, then ends them.
    package func shutdown() {
        work.close()
        finished.wait()
    }

    private func worker() {
        WorkerThread.setNice(qos.requestedNice)
        let local = WorkerLocal(pool: ObjectIdentifier(self))
        // Unretained: `local` outlives every task this loop runs, and the key is cleared first.
        pthread_setspecific(Self.workerKey, Unmanaged.passUnretained(local).toOpaque())
        while true {
            if let next = local.next {
                local.next = nil
                next()
            } else if let item = work.take() {
                item()
            } else {
                break
            }
        }
        pthread_setspecific(Self.workerKey, nil)
        finished.leave()
    }

    /// A worker's own next item, seen only by its thread.
    private final class WorkerLocal {
        let pool: ObjectIdentifier
        var next: (@Sendable () -> Void)?
        init(pool: ObjectIdentifier) { self.pool = pool }
    }

    private static let workerKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
