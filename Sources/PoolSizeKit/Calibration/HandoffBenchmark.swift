import Dispatch
import PoolSizeModel
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Two threads hand a token back and forth through a pair of POSIX semaphores (lmbench's
/// `lat_ctx` idea, with futex-backed semaphores instead of pipes). Every hand-off blocks one
/// thread and wakes the other, so half a round trip is one switch.
///
/// Pinned to one CPU, each hand-off is a context switch on that CPU. Pinned to two CPUs, it is a
/// wake-up of a thread sleeping on another CPU, which is what a pool worker waiting for a task
/// pays when the submitter runs elsewhere.
enum HandoffBenchmark {
    private final class Outcome: Sendable {
        let elapsed = Atomic<UInt64>(0)
        let failed = Atomic<Bool>(false)
        let pinned = Atomic<Int>(0)
    }

    /// Nanoseconds per hand-off over `count` round trips, the initiating thread pinned to
    /// `cpus.initiator` and the responding one to `cpus.responder`; `pinned` is false when the
    /// kernel refused either.
    static func round(count: Int, cpus: (initiator: Int, responder: Int)) throws(PoolSizeError) -> (
        perSwitch: Double, pinned: Bool
    ) {
        let semaphores = UnsafeMutablePointer<sem_t>.allocate(capacity: 2)
        sem_init(semaphores, 0, 0)
        sem_init(semaphores + 1, 0, 0)
        let ping = semaphores, pong = semaphores + 1
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        // sem_timedwait wants an absolute CLOCK_REALTIME deadline: a hand-off that takes 10 s
        // means the other thread is gone, and the round fails instead of hanging.
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += 10
        let limit = deadline

        func pin(_ cpu: Int) {
            if PosixThread.pinCurrentThread(toCPU: cpu) { outcome.pinned.wrappingAdd(1, ordering: .relaxed) }
        }
        let responder = PosixThread.spawn {
            pin(cpus.responder)
            var limit = limit
            for _ in 0..<count {
                if sem_timedwait(ping, &limit) != 0 { outcome.failed.store(true, ordering: .relaxed); break }
                sem_post(pong)
            }
            finished.signal()
        }
        let initiator = PosixThread.spawn {
            pin(cpus.initiator)
            var limit = limit
            let t0 = RoundPlanner.now()
            for _ in 0..<count {
                sem_post(ping)
                if sem_timedwait(pong, &limit) != 0 { outcome.failed.store(true, ordering: .relaxed); break }
            }
            outcome.elapsed.store(RoundPlanner.now() &- t0, ordering: .relaxed)
            finished.signal()
        }
        let threads = [responder, initiator].compactMap { $0 }
        guard threads.count == 2 else {
            if PosixThread.join(threads, finished: finished, timeout: 12) { semaphores.deallocate() }
            throw .measurementFailed("could not create the two threads of the token ping-pong")
        }
        guard PosixThread.join(threads, finished: finished, timeout: 12), !outcome.failed.load(ordering: .relaxed)
        else {
            // A thread may still touch the semaphores: leak them rather than free them under it.
            throw .measurementFailed(
                "the token ping-pong stalled for 10 s; the machine is too busy to time a context switch")
        }
        sem_destroy(ping)
        sem_destroy(pong)
        semaphores.deallocate()
        let perSwitch = Double(outcome.elapsed.load(ordering: .relaxed)) / Double(2 * count)
        return (perSwitch, outcome.pinned.load(ordering: .relaxed) == 2)
    }

    /// Nanoseconds `count` round trips take, for sizing rounds.
    static func timed(count: Int, cpus: (initiator: Int, responder: Int)) throws(PoolSizeError) -> UInt64 {
        UInt64(try round(count: count, cpus: cpus).perSwitch * Double(2 * count))
    }
}
