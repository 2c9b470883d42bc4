import CPoolSizeSys
import Dispatch
import PoolSizeModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One serial queue of an `AdaptiveQueuePool` and what it counts. Only blocks of this queue write
/// its counters, one at a time (a serial queue), so each is a plain relaxed load and store, never
/// a shared read-modify-write; the controller reads them once a window.
package final class AdaptiveSlot: Sendable {
    /// The serial queue.
    package let queue: DispatchQueue
    /// Work handed to this queue and not yet begun.
    let pending = PendingWork()
    /// The block every token runs, made once (`arm`): a closure capturing the slot afresh for
    /// each submission would cost an allocation per task, and a retain per token a write to the
    /// slot's header from the submitting thread. It holds the slot unowned: the pool keeps its
    /// slots until their queues have run every token (`AdaptiveQueuePool.deinit`). It is a block
    /// already, so handing it to the queue wraps no closure in a new block.
    @exclusivity(unchecked) nonisolated(unsafe) private var token: (@Sendable @convention(block) () -> Void)?
    /// Keeps what submitters read (above) and what this queue's thread writes (below) on
    /// separate cache lines, and two slots' counters apart.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Tasks begun and tasks finished: they differ while a task runs.
    let started = Atomic<UInt64>(0)
    let finished = Atomic<UInt64>(0)
    /// Tasks to run before the next timed one.
    private let untilSample = Atomic<Int>(1)
    /// This queue times every `sampleEvery`-th task it runs (set by the controller each window).
    let sampleEvery = Atomic<Int>(1)
    /// Tasks timed, and their sums: thread CPU, wall time, run-queue time (ns).
    let sampled = Atomic<UInt64>(0)
    let cpuNanoseconds = Atomic<UInt64>(0)
    let wallNanoseconds = Atomic<UInt64>(0)
    let runQueueNanoseconds = Atomic<UInt64>(0)
    private let trailing: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(label: String, qos: QoSTier) {
        queue = DispatchQueue(label: label, qos: qos.dispatchQoS)
    }

    /// Makes the token; called once, before the slot is shared.
    func arm() {
        token = { [unowned(unsafe) self] in runNext() }
    }

    /// Hands `work` to this queue.
    func submit(_ work: @escaping @Sendable () -> Void) {
        pending.push(work)
        schedule()
    }

    /// Hands this queue one token: when it runs, it takes the oldest waiting item, if any.
    func schedule() {
        queue.async(execute: token!)
    }

    private func runNext() {
        guard let work = pending.pop() else { return }
        let begun = started.load(ordering: .relaxed) &+ 1
        started.store(begun, ordering: .relaxed)
        let left = untilSample.load(ordering: .relaxed) - 1
        if left > 0 {
            untilSample.store(left, ordering: .relaxed)
            work()
        } else {
            untilSample.store(max(1, sampleEvery.load(ordering: .relaxed)), ordering: .relaxed)
            timed(work)
        }
        finished.store(begun, ordering: .relaxed)
    }

    /// Runs `work` between reads of the thread's CPU clock, its run-queue time (schedstat: the
    /// file stays open per thread, one pread) and the monotonic clock. C is the thread CPU, R the
    /// run-queue time, W the rest of the wall time (docs/platform.md "Measuring W and C").
    private func timed(_ work: () -> Void) {
        var queued0: UInt64 = 0
        var queued1: UInt64 = 0
        let hasQueue = poolsize_thread_run_delay_ns(&queued0) == 0
        let cpu0 = Self.read(CLOCK_THREAD_CPUTIME_ID)
        let wall0 = Self.read(CLOCK_MONOTONIC)
        work()
        let wall1 = Self.read(CLOCK_MONOTONIC)
        let cpu1 = Self.read(CLOCK_THREAD_CPUTIME_ID)
        let readable = hasQueue && poolsize_thread_run_delay_ns(&queued1) == 0
        let queued = readable && queued1 >= queued0 ? queued1 - queued0 : 0
        func add(_ counter: borrowing Atomic<UInt64>, _ value: UInt64) {
            counter.store(counter.load(ordering: .relaxed) &+ value, ordering: .relaxed)
        }
        add(cpuNanoseconds, cpu1 >= cpu0 ? cpu1 - cpu0 : 0)
        add(wallNanoseconds, wall1 >= wall0 ? wall1 - wall0 : 0)
        add(runQueueNanoseconds, queued)
        add(sampled, 1)
    }

    @inline(__always)
    private static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
