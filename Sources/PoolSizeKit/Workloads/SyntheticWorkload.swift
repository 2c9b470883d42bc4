import Foundation
import PoolSizeModel

/// What a pool runs: one task body per call. A protocol so trial mechanics can be tested with
/// workloads that do nothing, or that block on a gate (docs/conventions.md).
public protocol Workload: Sendable {
    /// Runs task `index` on the calling thread.
    func run(task index: UInt64)
    /// Runs task `index` and says what the thread's CPU clock cannot: CPU spent in child
    /// processes, and whether the task failed. The default runs `run(task:)`, which cannot fail.
    func execute(task index: UInt64) -> TaskOutcome
    /// Whether every `execute` reports the body's thread CPU in `TaskOutcome.cpuNanoseconds`;
    /// the trial then skips its own two reads of the thread CPU clock around the body, each a
    /// system call (docs/guide/harness-overhead.md). Default false.
    var measuresOwnCPU: Bool { get }
}

extension Workload {
    /// False: the trial reads the thread CPU clock around the body itself.
    public var measuresOwnCPU: Bool { false }

    /// Runs `run(task:)`: no child CPU, no failure.
    public func execute(task index: UInt64) -> TaskOutcome {
        run(task: index)
        return TaskOutcome()
    }
}

/// What a task reports beyond its thread's CPU clock.
public struct TaskOutcome: Equatable, Sendable {
    /// CPU time of the processes the task ran and reaped (wait4 rusage, user + system).
    public var childCPUNanoseconds: UInt64
    /// Why the task failed (a command's exit status, a signal, a timeout); nil on success.
    public var failure: String?
    /// The calling thread's CPU time over the body, when the body read that clock itself
    /// (`Workload.measuresOwnCPU`); nil when the trial must read it.
    public var cpuNanoseconds: UInt64?

    /// An outcome; the default is a success with no child CPU and no self-measured CPU.
    public init(childCPUNanoseconds: UInt64 = 0, failure: String? = nil, cpuNanoseconds: UInt64? = nil) {
        self.childCPUNanoseconds = childCPUNanoseconds
        self.failure = failure
        self.cpuNanoseconds = cpuNanoseconds
    }
}

/// A blocking wait: the W of a task. A protocol so tests can substitute a gate or a no-op.
package protocol Waiter: Sendable {
    func wait(microseconds: Double)
}

/// Blocks the calling thread in nanosleep(2): the thread is off-CPU and the pool slot is held,
/// as with blocking IO. Timer slack is set to 1 ns on each worker first (WorkerThread).
package struct SleepWaiter: Waiter {
    /// A waiter that sleeps.
    package init() {}

    /// Sleeps `microseconds`, resuming after signals.
    package func wait(microseconds: Double) {
        guard microseconds > 0 else { return }
        let ns = Int(microseconds * 1_000)
        var request = timespec(tv_sec: ns / 1_000_000_000, tv_nsec: ns % 1_000_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// The spec's task: block for W, then compute until the task's thread CPU time totals C (the
/// last `critical_us` of it inside the critical section, when the spec has one).
///
/// Waiting first lets the computation absorb the CPU the wait itself costs: a 5 ms nanosleep
/// costs about 50 µs of thread CPU on a virtual machine (timer programming, wake-up), which
/// would otherwise add 10% to a 500 µs task's measured C. Computing to a thread CPU total
/// makes the measured C equal the spec's whatever the wait costs. The order of wait and
/// compute does not change a closed loop's throughput.
package struct SyntheticWorkload: Workload {
    /// Draws each task's C and W.
    package let times: TaskTimes
    /// Computes until the thread has used C.
    package let burner: CPUBurner
    /// Blocks for W.
    package let waiter: any Waiter
    /// Guards the last `critical_us` of each task, when the trial sweeps a primitive.
    package let criticalSection: (any CriticalSection)?
    /// Where a spec's real file IO goes (`file_write_kb`, `file_read_kb`); nil for none.
    package let scratch: FileScratch?
    /// When the workload was made (its trial's start): a spec's `phases` count from here.
    package let startNanoseconds: UInt64

    /// A synthetic workload.
    package init(
        times: TaskTimes, burner: CPUBurner, waiter: any Waiter = SleepWaiter(),
        criticalSection: (any CriticalSection)? = nil, scratch: FileScratch? = nil
    ) {
        self.times = times
        self.burner = burner
        self.waiter = waiter
        self.criticalSection = criticalSection
        self.scratch = scratch
        startNanoseconds = burner.clocks.wallNanoseconds()
    }

    /// The task, the failure of its file IO, if any, and (without a critical section) the
    /// thread CPU it used, read from the clock reads the burner makes anyway.
    package func execute(task index: UInt64) -> TaskOutcome {
        let (failure, cpu) = perform(task: index)
        return TaskOutcome(failure: failure, cpuNanoseconds: cpu)
    }

    /// True without a critical section and on the real clocks: the burner's own first and last
    /// clock reads give C.
    package var measuresOwnCPU: Bool { criticalSection == nil && burner.clocks is SystemClocks }

    /// Task `index`: wait W, then compute to C (the critical part inside the section).
    package func run(task index: UInt64) { _ = perform(task: index) }

    /// Waits W, does the spec's file IO (the device's wait), then computes to C; returns the
    /// IO failure and, without a critical section, the thread CPU from start to finish.
    func perform(task index: UInt64) -> (failure: String?, cpuNanoseconds: UInt64?) {
        let (cpu, wait): (Double, Double)
        if times.spec.phases.isEmpty {
            (cpu, wait) = times.times(forTask: index)
        } else {
            // One more clock read, only for a workload that changes: which phase this task is in.
            let elapsed = Double(burner.clocks.wallNanoseconds() &- startNanoseconds) / 1e6
            (cpu, wait) = times.times(forTask: index, means: times.spec.means(atMilliseconds: elapsed))
        }
        let start = burner.clocks.threadCPUNanoseconds()
        waiter.wait(microseconds: wait)
        let failure = scratch?.io(
            task: index, writeBytes: Int(times.spec.fileWriteKilobytes * 1024),
            readBytes: Int(times.spec.fileReadKilobytes * 1024), seed: times.seed)
        let total = start + UInt64(cpu * 1_000)
        if let criticalSection {
            let critical = UInt64(min(times.spec.criticalMicroseconds, cpu) * 1_000)
            burner.burn(untilThreadCPU: total - critical)
            criticalSection.enter(task: index) { burner.burn(microseconds: Double(critical) / 1_000) }
            return (failure, nil)
        }
        let end = burner.burn(untilThreadCPU: total)
        return (failure, end &- start)
    }
}

/// A critical section guarded by some primitive; `body` runs inside it.
public protocol CriticalSection: Sendable {
    func enter(task index: UInt64, _ body: () -> Void)
}
