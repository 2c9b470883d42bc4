import Dispatch
import PoolSizeModel
import Synchronization

/// The plain program the harness is compared against (README "Harness overhead"): N serial
/// DispatchQueues, each keeping `depthPerSlot` tasks in flight by resubmitting to itself when
/// one completes, running the same task body, and counting completions with one relaxed
/// atomic. No clocks per task, no samples, no histograms: what it reaches is what the pool can
/// do without the harness, so a trial's throughput over this one is the harness's share.
public struct RawDispatchReference: Sendable {
    /// The clock that times the window (read twice per run, never per task).
    public let clocks: any MeasurementClocks

    /// A reference reading `clocks`.
    public init(clocks: any MeasurementClocks = SystemClocks()) {
        self.clocks = clocks
    }

    /// Runs `workload` on `size` serial queues of tier `qos` for `settings.durationNanoseconds`,
    /// counting completions after the warm-up share; waits for in-flight tasks before it
    /// returns, and throws when they do not finish within the drain timeout.
    public func run(size: Int, qos: QoSTier = .default, workload: any Workload, settings: TrialSettings) throws(PoolSizeError) -> RawDispatchResult {
        guard size >= 1 else { throw .invalidOption(flag: "--sizes", message: "the reference needs at least one queue, got \(size)") }
        let loop = RawLoop(workload: workload)
        let queues = (0..<size).map { DispatchQueue(label: "poolsize.reference.\($0)", qos: qos.dispatchQoS) }
        let depth = max(1, settings.depthPerSlot)
        let t0 = clocks.wallNanoseconds()
        for layer in 0..<depth {
            for (slot, queue) in queues.enumerated() {
                if settings.staggerNanoseconds > 0 && layer > 0 {
                    TrialRunner.sleep(until: t0 + settings.staggerNanoseconds / UInt64(depth) * UInt64(layer), clocks: clocks)
                }
                loop.start(on: queue, chain: layer * size + slot, of: depth * size)
            }
        }
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        Self.sleep(nanoseconds: (t0 + warmup) > clocks.wallNanoseconds() ? t0 + warmup - clocks.wallNanoseconds() : 0)
        let count0 = loop.completions.load(ordering: .relaxed)
        let start = clocks.wallNanoseconds()
        Self.sleep(nanoseconds: settings.durationNanoseconds - warmup)
        let count1 = loop.completions.load(ordering: .relaxed)
        let end = clocks.wallNanoseconds()
        loop.stop.store(true, ordering: .sequentiallyConsistent)
        if loop.group.wait(timeout: .now() + settings.drainTimeoutSeconds) == .timedOut {
            throw .measurementFailed("the reference's \(size) queues did not finish their in-flight tasks within \(Int(settings.drainTimeoutSeconds)) s of the run's end")
        }
        return RawDispatchResult(size: size, completions: Int(count1 &- count0), windowNanoseconds: end - start)
    }

    static func sleep(nanoseconds: UInt64) {
        guard nanoseconds > 0 else { return }
        SleepWaiter().wait(microseconds: Double(nanoseconds) / 1_000)
    }
}

/// What the raw-dispatch reference counted.
public struct RawDispatchResult: Equatable, Sendable {
    /// Serial queues it ran on.
    public var size: Int
    /// Tasks that completed inside the window.
    public var completions: Int
    /// Window length in nanoseconds.
    public var windowNanoseconds: UInt64

    /// A result with these figures.
    public init(size: Int, completions: Int, windowNanoseconds: UInt64) {
        self.size = size
        self.completions = completions
        self.windowNanoseconds = windowNanoseconds
    }

    /// Completions per second of window; 0 for an empty window.
    public var throughputPerSecond: Double {
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

    private func submit(on queue: DispatchQueue, task: UInt64, stride: UInt64) {
        queue.async { [self] in
            _ = workload.execute(task: task)
            completions.wrappingAdd(1, ordering: .relaxed)
            if stop.load(ordering: .relaxed) { group.leave() } else { submit(on: queue, task: task &+ stride, stride: stride) }
        }
    }
}

/// A task body that does nothing: what remains of a trial's time per task is dispatch and
/// harness cost (`poolsize calibrate`'s harness row).
struct EmptyWorkload: Workload {
    func run(task index: UInt64) {}
}
