import CPoolSizeSys
import Dispatch
import PoolSizeModel
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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
        guard let ping = poolsize_semaphore_create() else {
            throw .measurementFailed("could not create the token ping-pong's semaphores")
        }
        guard let pong = poolsize_semaphore_create() else {
            poolsize_semaphore_destroy(ping)
            throw .measurementFailed("could not create the token ping-pong's semaphores")
        }
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        // The wait takes an absolute CLOCK_REALTIME deadline: a hand-off that takes 10 s
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
                if poolsize_semaphore_wait(ping, &limit) != 0 { outcome.failed.store(true, ordering: .relaxed); break }
                poolsize_semaphore_post(pong)
            }
            finished.signal()
        }
        let initiator = PosixThread.spawn {
            pin(cpus.initiator)
            var limit = limit
            let t0 = RoundPlanner.now()
            for _ in 0..<count {
                poolsize_semaphore_post(ping)
                if poolsize_semaphore_wait(pong, &limit) != 0 { outcome.failed.store(true, ordering: .relaxed); break }
            }
            outcome.elapsed.store(RoundPlanner.now() &- t0, ordering: .relaxed)
            finished.signal()
        }
        let threads = [responder, initiator].compactMap { $0 }
        guard threads.count == 2 else {
            if PosixThread.join(threads, finished: finished, timeout: 12) {
                poolsize_semaphore_destroy(ping)
                poolsize_semaphore_destroy(pong)
            }
            throw .measurementFailed("could not create the two threads of the token ping-pong")
        }
        guard PosixThread.join(threads, finished: finished, timeout: 12), !outcome.failed.load(ordering: .relaxed)
        else {
            // A thread may still touch the semaphores: leak them rather than free them under it.
            throw .measurementFailed(
                "the token ping-pong stalled for 10 s; the machine is too busy to time a context switch")
        }
        poolsize_semaphore_destroy(ping)
        poolsize_semaphore_destroy(pong)
        let perSwitch = Double(outcome.elapsed.load(ordering: .relaxed)) / Double(2 * count)
        return (perSwitch, outcome.pinned.load(ordering: .relaxed) == 2)
    }

    /// Nanoseconds `count` round trips take, for sizing rounds.
    static func timed(count: Int, cpus: (initiator: Int, responder: Int)) throws(PoolSizeError) -> UInt64 {
        UInt64(try round(count: count, cpus: cpus).perSwitch * Double(2 * count))
    }
}
