import Dispatch
import Foundation
import PoolSizeModel
import PoolSizeProcess
import Synchronization

/// How one trial is driven.
package struct TrialSettings: Sendable, Equatable {
    /// Total trial length, warm-up included.
    package var durationNanoseconds: UInt64
    /// Leading share of the trial excluded from the window (pool start-up, first wake-ups).
    package var warmupFraction: Double
    /// Tasks kept outstanding per unit of pool size. More than one keeps every queue busy even
    /// when round-robin hands two consecutive resubmissions to the same queue.
    package var depthPerSlot: Int
    /// Optional cap on tasks started.
    package var maxTasks: Int?
    /// How long to wait for in-flight tasks after the window before declaring the pool stuck.
    package var drainTimeoutSeconds: Double
    /// The initial tasks are submitted spread evenly over this span, one per slot per task
    /// period. Submitting them all at once starts every task in lock-step: N tasks burn CPU
    /// together, then sleep together, and that convoy persists with deterministic task times,
    /// capping throughput well below what the pool can do in steady state.
    package var staggerNanoseconds: UInt64
    /// When the window may close before `durationNanoseconds`: once the throughput is known
    /// (`TrialStopRule`); nil for a window of fixed length.
    package var stop: TrialStopRule?

    /// Settings; `forTasks(ofNanoseconds:durationNanoseconds:maxTasks:)` derives sensible ones.
    package init(
        durationNanoseconds: UInt64, warmupFraction: Double = 0.2, depthPerSlot: Int = 2, maxTasks: Int? = nil,
        drainTimeoutSeconds: Double = 60, staggerNanoseconds: UInt64 = 0
    ) {
        self.durationNanoseconds = durationNanoseconds
        self.warmupFraction = warmupFraction
        self.depthPerSlot = depthPerSlot
        self.maxTasks = maxTasks
        self.drainTimeoutSeconds = drainTimeoutSeconds
        self.staggerNanoseconds = staggerNanoseconds
    }

    /// Settings for a workload whose tasks take `taskNanoseconds` (C + W): the start is
    /// staggered over one task period per layer of depth, and warm-up lasts at least that
    /// stagger plus one period, so the window sees the steady state.
    package static func forTasks(
        ofNanoseconds taskNanoseconds: UInt64, durationNanoseconds: UInt64, maxTasks: Int? = nil
    ) -> TrialSettings {
        var settings = TrialSettings(durationNanoseconds: durationNanoseconds, maxTasks: maxTasks)
        settings.staggerNanoseconds = taskNanoseconds * UInt64(settings.depthPerSlot)
        let warmup = settings.staggerNanoseconds + taskNanoseconds
        let minimumDuration = warmup * 5
        settings.durationNanoseconds = max(durationNanoseconds, minimumDuration)
        settings.warmupFraction = max(0.2, Double(warmup) / Double(settings.durationNanoseconds))
        return settings
    }
}

/// Runs one closed-loop trial: keeps `size × depth` tasks outstanding on the pool (every
/// completion submits a replacement) until the window closes, records every task, then drains.
package struct TrialRunner: Sendable {
    /// The clocks every timestamp comes from.
    package let clocks: any MeasurementClocks

    /// A runner reading `clocks`.
    package init(clocks: any MeasurementClocks = SystemClocks()) {
        self.clocks = clocks
    }

    /// Runs one trial of `workload` on `pool` and returns its raw measurement, with what `watch`
    /// saw over the window; throws when the pool does not drain.
    package func run(
        pool: any WorkerPool, workload: any Workload, settings: TrialSettings,
        watch: any TrialWindowWatch = NoWindowWatch()
    ) throws(PoolSizeError) -> TrialMeasurement {
        let initial = pool.plannedSize * max(1, settings.depthPerSlot)
        let state = ClosedLoop(
            pool: pool, workload: workload, clocks: clocks, maxTasks: settings.maxTasks, chains: initial)
        let busy0 = clocks.machineBusyNanoseconds()
        let usage0 = clocks.processUsage()
        let t0 = clocks.wallNanoseconds()
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        let gap = settings.staggerNanoseconds / UInt64(initial)
        for index in 0..<initial {
            if gap > 0 && index > 0 { Self.sleep(until: t0 + gap * UInt64(index), clocks: clocks) }
            state.launch()
        }
        // A large pool can take longer to start (thousands of threads) than the planned
        // stagger: the warm-up after the stagger then counts from the last launch, and the
        // window keeps its full planned length, so no trial is measured over a sliver of time.
        let launched = clocks.wallNanoseconds()
        let afterStagger = warmup > settings.staggerNanoseconds ? warmup - settings.staggerNanoseconds : 0
        let warmupEnd = max(t0 + warmup, launched + afterStagger)
        let windowLength = settings.durationNanoseconds - warmup

        var windowStart = t0, windowEnd: UInt64, usageStart = usage0, usageEnd: ProcessUsage
        var busyStart = busy0, busyEnd: UInt64?
        let watched: TrialRecord.Watched
        var ended = TrialRecord.WindowEnd.planned, knownMargin: Double? = nil
        if state.group.wait(timeout: .now() + .nanoseconds(Int(warmupEnd - min(warmupEnd, clocks.wallNanoseconds()))))
            == .success
        {
            // Every task (max_tasks) finished during warm-up: the whole trial is the window.
            windowEnd = state.recorder.lastEnd
            usageEnd = clocks.processUsage()
            busyEnd = clocks.machineBusyNanoseconds()
            watched = .nothing
        } else {
            busyStart = clocks.machineBusyNanoseconds()
            usageStart = clocks.processUsage()
            windowStart = clocks.wallNanoseconds()
            watch.windowOpened()
            let finished: Bool
            (finished, ended, knownMargin) = Self.wait(
                for: state, from: windowStart, length: windowLength, stop: settings.stop, clocks: clocks)
            windowEnd = finished ? state.recorder.lastEnd : clocks.wallNanoseconds()
            usageEnd = clocks.processUsage()
            busyEnd = clocks.machineBusyNanoseconds()
            watched = watch.windowClosed()
        }
        let threadsNow = ProcReader.ownThreadCount()
        // The sizes a pool that sizes itself chose up to the window's end, not through the drain.
        let sizeSteps = pool.sizeSteps
        state.stop.store(true, ordering: .sequentiallyConsistent)
        if state.group.wait(timeout: .now() + settings.drainTimeoutSeconds) == .timedOut {
            throw .measurementFailed(
                "\(pool.kind.rawValue) of size \(pool.plannedSize) did not finish its in-flight tasks within \(Int(settings.drainTimeoutSeconds)) s of the trial's end"
            )
        }
        let samples = state.recorder.samples()
        var measurement = TrialMeasurement(
            poolSize: pool.plannedSize, windowStart: windowStart, windowEnd: windowEnd,
            usageAtStart: usageStart, usageAtEnd: usageEnd, samples: samples,
            peakConcurrency: TaskRecorder.peak(of: samples), processThreads: threadsNow
        )
        measurement.watched = watched
        measurement.windowEnded = ended
        measurement.knownMargin = knownMargin
        return measurement.withMachineBusy(start: busyStart, end: busyEnd).withFailures(state.recorder.failureReasons)
            .withSizeSteps(
                sizeSteps)
    }
}

extension TrialRunner {
    /// Waits out a window of `length` from `start`: to its end, or with `stop` until its
    /// throughput is known, reading the completions every `TrialStopRule.checkNanoseconds` (or
    /// a twentieth of the window so far, when longer). Whether every chain finished, how the
    /// window ended and, when it ended known, the margin it was known to.
    static func wait(
        for state: ClosedLoop, from start: UInt64, length: UInt64, stop: TrialStopRule?, clocks: any MeasurementClocks
    ) -> (finished: Bool, ended: TrialRecord.WindowEnd, margin: Double?) {
        guard let stop else {
            return (state.group.wait(timeout: .now() + .nanoseconds(Int(length))) == .success, .planned, nil)
        }
        let deadline = start + length
        var bins = CompletionBins(start: start)
        while true {
            let now = clocks.wallNanoseconds()
            if now >= deadline { return (false, .longest, nil) }
            let step = min(deadline - now, TrialStopRule.interval(afterElapsed: now - min(now, start)))
            if state.group.wait(timeout: .now() + .nanoseconds(Int(step))) == .success {
                return (true, .planned, nil)
            }
            let checked = clocks.wallNanoseconds()
            bins.read(state.recorder)
            let estimate = bins.estimate(at: checked)
            if stop.isKnown(estimate, elapsed: checked - min(checked, start)) {
                return (false, .known, estimate?.relativeHalfWidth)
            }
        }
    }

    static func sleep(until deadline: UInt64, clocks: any MeasurementClocks) {
        WorkerThread.prepareForMeasurement()
        clocks.sleep(until: deadline)
    }
}

/// Shared state of one closed-loop trial: the chains of tasks and when they stop; what each
/// task records is `TaskRecorder`'s, shared with the open loop.
final class ClosedLoop: Sendable {
    let pool: any WorkerPool
    /// `pool` when it is a `ThreadPool`, which can keep a chain's next task on the worker that
    /// submits it.
    let threadPool: ThreadPool?
    let maxTasks: Int?
    let group = DispatchGroup()
    let stop = Atomic<Bool>(false)
    let recorder: TaskRecorder
    let clocks: any MeasurementClocks
    /// How many chains the trial launches: chain c runs tasks c, c + chains, c + 2·chains…
    let chains: Int
    private let launched = Atomic<Int>(0)

    /// One chain of tasks. Its tasks' indices step by the number of chains, so no task bumps a
    /// counter every worker shares (the set of indices run is the same: all below `maxTasks`),
    /// and its one closure is made at launch and handed to the pool again for each task, so no
    /// task allocates one.
    final class Chain: @unchecked Sendable {
        // @unchecked: `index` and `submitted` are written before the pool is handed `body` and
        // read by the thread that runs it, after the pool's own hand-off; `body` is cleared by
        // the chain's last task.
        var index: UInt64
        var submitted: UInt64 = 0
        var body: (@Sendable () -> Void)?
        init(index: UInt64) { self.index = index }
    }

    init(pool: any WorkerPool, workload: any Workload, clocks: any MeasurementClocks, maxTasks: Int?, chains: Int) {
        self.pool = pool
        self.threadPool = pool as? ThreadPool
        self.clocks = clocks
        self.maxTasks = maxTasks
        self.chains = max(1, chains)
        self.recorder = TaskRecorder(workload: workload, clocks: clocks, threads: self.chains)
    }

    /// Starts one of the `chains` chains of tasks: each task, once done, submits the next
    /// through the pool's own `submit` (round-robin for a `QueuePool`, as a caller's work
    /// arrives) until the trial stops or `maxTasks` is reached. `group` counts chains, not
    /// tasks: one enter and one leave per chain, as in the raw-dispatch reference.
    func launch() {
        let number = launched.wrappingAdd(1, ordering: .relaxed).oldValue
        precondition(number < chains, "a closed loop launched more chains than it was made for")
        group.enter()
        let chain = Chain(index: UInt64(number))
        let stride = UInt64(chains)
        chain.body = { [self] in
            recorder.run(task: chain.index, submitted: chain.submitted)
            // The chain ends here when the trial stops or max_tasks is reached.
            if stop.load(ordering: .relaxed) || !submit(chain, index: chain.index &+ stride) { end(chain) }
        }
        if !submit(chain, index: chain.index) { end(chain) }
    }

    /// Hands the chain's next task, `index`, to the pool; false when `index` is past `maxTasks`.
    private func submit(_ chain: Chain, index: UInt64) -> Bool {
        if let maxTasks, index >= UInt64(maxTasks) { return false }
        chain.index = index
        chain.submitted = clocks.wallNanoseconds()
        // Handing over is the chain's task's last act (or the launch's, on a thread no pool owns).
        if let threadPool { threadPool.submitFollowing(chain.body!) } else { pool.submit(chain.body!) }
        return true
    }

    /// The chain's last task is done: its closure is let go (the pool still holds the one
    /// running) and the trial's group told.
    private func end(_ chain: Chain) {
        chain.body = nil
        group.leave()
    }
}
