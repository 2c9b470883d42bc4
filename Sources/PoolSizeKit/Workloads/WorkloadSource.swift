import PoolSizeModel

/// Where a sweep's tasks come from: the synthetic spec, or work of the user's own. The sweep
/// asks it for a fresh `Workload` per trial (with the trial's critical section, when the
/// primitive axis is swept).
public protocol WorkloadSource: Sendable {
    /// C + W of one task as declared, for planning trial lengths before anything is measured;
    /// nil when only a measurement can tell (the sweep then plans from the low-load W and C).
    var declaredTaskNanoseconds: UInt64? { get }
    /// Whether tasks can enter the trial's critical section (the primitive axis).
    var supportsCriticalSections: Bool { get }
    /// The workload of one trial; `seed` makes any random draws reproducible.
    func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload
    /// What the tasks learnt about the service they called (a `poolsize serve` header), for
    /// machine.json; nil when there is nothing to record.
    var observedServer: String? { get }
    /// Releases what the source holds once the sweep ends: connections, processes its tasks
    /// left behind.
    func sweepEnded()
}

extension WorkloadSource {
    /// Nothing to record.
    public var observedServer: String? { nil }
    /// Nothing to release.
    public func sweepEnded() {}
}

/// The spec's synthetic task: W of sleeping, then computing until the thread has used C.
package struct SyntheticSource: WorkloadSource {
    /// The spec's means and jitter.
    package let spec: WorkloadSpec
    /// Computes until the thread has used C.
    package let burner: CPUBurner
    /// Where the spec's file IO goes; needed when `spec.doesFileIO`.
    package let scratch: FileScratch?

    /// Tasks of `spec`.
    package init(spec: WorkloadSpec, burner: CPUBurner, scratch: FileScratch? = nil) {
        self.spec = spec
        self.burner = burner
        self.scratch = scratch
    }

    /// C + W as the spec declares them; nil for file IO, whose W is the device's.
    package var declaredTaskNanoseconds: UInt64? {
        spec.doesFileIO ? nil : UInt64((spec.cpuMicroseconds + spec.waitMicroseconds) * 1_000)
    }
    /// Synthetic tasks enter the trial's critical section.
    package var supportsCriticalSections: Bool { true }

    /// The spec's workload for one trial.
    package func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload {
        SyntheticWorkload(
            times: TaskTimes(spec: spec, seed: seed), burner: burner, criticalSection: criticalSection, scratch: scratch
        )
    }
}

/// A Swift closure as the task: whatever it does (compute, block on IO, call a service) is
/// measured as it happens: its thread CPU time is C, the rest of its wall time W.
package struct ClosureSource: WorkloadSource {
    /// One task; its argument is the task's index.
    package let body: @Sendable (UInt64) -> Void

    /// - Parameter body: one task; its argument is the task's index (0, 1, 2, … in submission order).
    package init(_ body: @escaping @Sendable (UInt64) -> Void) {
        self.body = body
    }

    /// Unknown: the closure's W and C are measured.
    package var declaredTaskNanoseconds: UInt64? { nil }
    /// A closure cannot be guarded by the sweep's primitives.
    package var supportsCriticalSections: Bool { false }

    /// A workload that calls the closure once per task.
    package func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload {
        ClosureWorkload(body: body)
    }
}

struct ClosureWorkload: Workload {
    let body: @Sendable (UInt64) -> Void
    func run(task index: UInt64) { body(index) }
}

/// Tasks drawn from a recorded trace: each task takes one row (chosen by a seeded draw on the
/// task's index, so every thread sees the same sequence) and waits that row's W, then computes
/// to its C, as a synthetic task does.
package struct TraceSource: WorkloadSource {
    /// The recorded rows.
    package let trace: Trace
    /// Computes until the thread has used a row's C.
    package let burner: CPUBurner

    /// Tasks drawn from `trace`.
    package init(trace: Trace, burner: CPUBurner) {
        self.trace = trace
        self.burner = burner
    }

    /// The rows' mean C + W.
    package var declaredTaskNanoseconds: UInt64? {
        UInt64((trace.cpuMicroseconds.reduce(0, +) + trace.waitMicroseconds.reduce(0, +)) / Double(trace.count) * 1_000)
    }

    /// A trace's requests are the user's; the sweep's primitives do not guard them.
    package var supportsCriticalSections: Bool { false }

    /// The trace's workload for one trial.
    package func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload {
        TraceWorkload(trace: trace, seed: seed, burner: burner)
    }
}

struct TraceWorkload: Workload {
    let trace: Trace
    let seed: UInt64
    let burner: CPUBurner

    /// The row task `index` replays.
    func row(forTask index: UInt64) -> Int {
        var generator = SeededGenerator(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        return Int(generator.next() % UInt64(trace.count))
    }

    func run(task index: UInt64) {
        let row = row(forTask: index)
        let start = burner.clocks.threadCPUNanoseconds()
        SleepWaiter().wait(microseconds: trace.waitMicroseconds[row])
        burner.burn(untilThreadCPU: start + UInt64(trace.cpuMicroseconds[row] * 1_000))
    }
}
