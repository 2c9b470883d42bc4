import Dispatch
import PoolSizeModel
import Synchronization

/// The plain program the harness is compared against (docs/guide/harness-overhead.md): the same
/// task body kept `depthPerSlot` tasks deep per queue, each completion submitting its
/// replacement, counting completions with one relaxed atomic. No clocks per task, no samples,
/// no histograms: what it reaches is what the pool can do without the harness.
///
/// Two ways to resubmit:
/// - `run(pool:workload:settings:)` submits every replacement through the pool's own `submit`,
///   as the trial does. For a `QueuePool` that is round-robin, so a completion usually lands on
///   another queue and may wake that queue's thread. A trial's throughput over this one is the
///   harness's own share (clocks, samples, counters), with the pool's cost on both sides.
/// - `run(size:qos:workload:settings:)` and `run(queues:workload:settings:)` resubmit to the
///   serial queue that just finished: the thread that ran a task runs the next without
///   sleeping. Against the pool run this shows what round-robin submission itself costs the
///   pool in a closed loop.
package struct RawDispatchReference: Sendable {
    /// The clock that times the window (read twice per run, never per task).
    package let clocks: any MeasurementClocks

    /// A reference reading `clocks`.
    package init(clocks: any MeasurementClocks = SystemClocks()) {
        self.clocks = clocks
    }

    /// Runs `workload` on `size` new serial queues of tier `qos`, each chain of tasks
    /// resubmitting to its own queue, for `settings.durationNanoseconds`, counting completions
    /// after the warm-up share; waits for in-flight tasks before it returns, and throws when they
    /// do not finish within the drain timeout.
    package func run(size: Int, qos: QoSTier = .default, workload: any Workload, settings: TrialSettings)
        throws(PoolSizeError) -> RawDispatchResult
    {
        guard size >= 1 else {
            throw .invalidParameter(.sizes, message: "the reference needs at least one queue, got \(size)")
        }
        return try run(
            queues: (0..<size).map { DispatchQueue(label: "poolsize.reference.\($0)", qos: qos.dispatchQoS) },
            workload: workload, settings: settings)
    }

    /// The own-queue reference on the given serial queues: chain `layer × count + slot` starts
    /// on `queues[slot]` and stays there.
    package func run(queues: [DispatchQueue], workload: any Workload, settings: TrialSettings) throws(PoolSizeError)
        -> RawDispatchResult
    {
        let size = queues.count
        guard size >= 1 else {
            throw .invalidParameter(.sizes, message: "the reference needs at least one queue, got 0")
        }
        let loop = RawLoop(workload: workload)
        let depth = max(1, settings.depthPerSlot)
        let t0 = clocks.wallNanoseconds()
        for layer in 0..<depth {
            for (slot, queue) in queues.enumerated() {
                if settings.staggerNanoseconds > 0 && layer > 0 {
                    TrialRunner.sleep(
                        until: t0 + settings.staggerNanoseconds / UInt64(depth) * UInt64(layer), clocks: clocks)
                }
                loop.start(on: queue, chain: layer * size + slot, of: depth * size)
            }
        }
        return try window(loop: loop, t0: t0, settings: settings, size: size, what: "the reference on \(size) queues")
    }

    /// Runs `workload` on `pool` as a trial does, without the harness: `pool.size × depthPerSlot`
    /// tasks submitted spread over the stagger (the trial's schedule), each completion submitting
    /// its replacement through `pool.submit`; completions after the warm-up share are counted.
    /// Waits for in-flight tasks before it returns, and throws when they do not finish within the
    /// drain timeout. The caller owns the pool (and shuts it down).
    package func run(pool: any WorkerPool, workload: any Workload, settings: TrialSettings) throws(PoolSizeError)
        -> RawDispatchResult
    {
        guard pool.size >= 1 else {
            throw .invalidParameter(.sizes, message: "the reference needs at least one queue, got \(pool.size)")
        }
        let loop = RawLoop(workload: workload)
        let initial = pool.size * max(1, settings.depthPerSlot)
        let gap = settings.staggerNanoseconds / UInt64(initial)
        let t0 = clocks.wallNanoseconds()
        for chain in 0..<initial {
            if gap > 0 && chain > 0 { TrialRunner.sleep(until: t0 + gap * UInt64(chain), clocks: clocks) }
            loop.start(through: pool, chain: chain, of: initial)
        }
        return try window(
            loop: loop, t0: t0, settings: settings, size: pool.size,
            what: "the reference on a \(pool.kind.rawValue) of size \(pool.size)")
    }

    /// Sleeps through the warm-up, counts completions over the window, stops the chains and
    /// waits for them.
    private func window(loop: RawLoop, t0: UInt64, settings: TrialSettings, size: Int, what: String)
        throws(PoolSizeError) -> RawDispatchResult
    {
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        Self.sleep(nanoseconds: (t0 + warmup) > clocks.wallNanoseconds() ? t0 + warmup - clocks.wallNanoseconds() : 0)
        let count0 = loop.completions.load(ordering: .relaxed)
        let start = clocks.wallNanoseconds()
        Self.sleep(nanoseconds: settings.durationNanoseconds - warmup)
        let count1 = loop.completions.load(ordering: .relaxed)
        let end = clocks.wallNanoseconds()
        loop.stop.store(true, ordering: .sequentiallyConsistent)
        if loop.group.wait(timeout: .now() + settings.drainTimeoutSeconds) == .timedOut {
            throw .measurementFailed(
                "\(what) did not finish its in-flight tasks within \(Int(settings.drainTimeoutSeconds)) s of the run's end"
            )
        }
        var result = RawDispatchResult(size: size, completions: Int(count1 &- count0), windowNanoseconds: end - start)
        result.tasksRun = loop.completions.load(ordering: .relaxed)
        return result
    }

    static func sleep(nanoseconds: UInt64) {
        guard nanoseconds > 0 else { return }
        SleepWaiter().wait(microseconds: Double(nanoseconds) / 1_000)
    }
}

/// What the raw-dispatch reference counted.
package struct RawDispatchResult: Equatable, Sendable {
    /// Serial queues (or the pool's size) it ran on.
    package var size: Int
    /// Tasks that completed inside the window.
    package var completions: Int
    /// Window length in nanoseconds.
    package var windowNanoseconds: UInt64
    /// Tasks run in the whole run, warm-up and drain included (for per-task counters taken
    /// over the whole run).
    package var tasksRun: Int = 0

    /// A result with these figures.
    package init(size: Int, completions: Int, windowNanoseconds: UInt64) {
        self.size = size
        self.completions = completions
        self.windowNanoseconds = windowNanoseconds
    }

    /// Completions per second of window; 0 for an empty window.
    package var throughputPerSecond: Double {
        windowNanoseconds > 0 ? Double(completions) / (Double(windowNanoseconds) / 1e9) : 0
    }
}

/// Shared state of one reference run: the completion counter, the stop flag, and a group that
/// counts the task chains still running (one enter per chain, not per task).
final class RawLoop: Sendable {
    let workload: any Workload
    let completions = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let group = DispatchGroup()

    init(workload: any Workload) {
        self.workload = workload
    }

    /// Starts chain `chain` of `chains` on `queue`: run a task, count it, resubmit to the same
    /// queue. Chain c runs tasks c, c + chains, c + 2 × chains…, so no shared task counter.
    func start(on queue: DispatchQueue, chain: Int, of chains: Int) {
        group.enter()
        submit(on: queue, task: UInt64(chain), stride: UInt64(max(1, chains)))
    }

    /// Starts chain `chain` of `chains` through `pool`: run a task, count it, submit the next
    /// through `pool.submit` (wherever the pool puts it). Same task indices as above.
    func start(through pool: any WorkerPool, chain: Int, of chains: Int) {
        group.enter()
        submit(through: pool, task: UInt64(chain), stride: UInt64(max(1, chains)))
    }

    private func submit(on queue: DispatchQueue, task: UInt64, stride: UInt64) {
        queue.async { [self] in
            _ = workload.execute(task: task)
            completions.wrappingAdd(1, ordering: .relaxed)
            if stop.load(ordering: .relaxed) {
                group.leave()
            } else {
                submit(on: queue, task: task &+ stride, stride: stride)
            }
        }
    }

    private func submit(through pool: any WorkerPool, task: UInt64, stride: UInt64) {
        pool.submit { [self] in
            _ = workload.execute(task: task)
            completions.wrappingAdd(1, ordering: .relaxed)
            if stop.load(ordering: .relaxed) {
                group.leave()
            } else {
                submit(through: pool, task: task &+ stride, stride: stride)
            }
        }
    }
}

/// A task body that does nothing: what remains of a trial's time per task is dispatch and
/// harness cost (`poolsize calibrate`'s harness row).
struct EmptyWorkload: Workload {
    func run(task index: UInt64) {}
}
