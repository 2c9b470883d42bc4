import Dispatch
import Foundation
import PoolSizeModel
import PoolSizeProcess
import Synchronization

/// How one open-loop trial is driven: the rate and spacing of arrivals and the phases of the
/// trial (warm-up, measured window, a tail of further arrivals so tasks that arrived late in the
/// window meet the same load as the others).
package struct OpenLoopTrial: Sendable, Equatable {
    /// Offered arrivals per second.
    package var ratePerSecond: Double
    /// How arrivals are spaced.
    package var process: ArrivalProcess
    /// Arrivals before the window, so the queue reaches its steady state from empty.
    package var warmupNanoseconds: UInt64
    /// The measured window: arrivals in it are the trial's tasks.
    package var windowNanoseconds: UInt64
    /// Arrivals go on this long after the window; a task of the window not finished by the end
    /// of the tail counts with the time it had waited so far (a lower bound).
    package var tailNanoseconds: UInt64
    /// How long to wait for running tasks after the trial before declaring the pool stuck.
    package var drainTimeoutSeconds: Double = 60
    /// The latency objective the trial is judged against, µs; nil without one. A driver that
    /// held arrivals back for want of connections asks whether that could change the verdict.
    package var latencySLOMicroseconds: Double?
    /// The percentile the objective names (50, 90, 99 or 99.9): a load tool that did not print
    /// it gives no verdict.
    package var sloPercentile: Double = 99

    /// Phases as given.
    package init(
        ratePerSecond: Double, process: ArrivalProcess, warmupNanoseconds: UInt64, windowNanoseconds: UInt64,
        tailNanoseconds: UInt64
    ) {
        self.ratePerSecond = ratePerSecond
        self.process = process
        self.warmupNanoseconds = warmupNanoseconds
        self.windowNanoseconds = windowNanoseconds
        self.tailNanoseconds = tailNanoseconds
    }

    /// Arrivals a default window holds at least, so a p99 rests on 20 tasks beyond it.
    package static let minimumWindowArrivals = 2_000.0
    /// The shortest warm-up of a pool that sizes itself (`AdaptiveQueuePool`): the time it is
    /// given to settle from a cold start (docs/guide/adaptive-pool.md).
    package static let settlingNanoseconds: UInt64 = 3_000_000_000

    /// A default window is at most this long (a low rate's p99 then rests on fewer tasks).
    package static let maximumDefaultWindowNanoseconds: UInt64 = 10_000_000_000

    /// Phases for tasks of `taskNanoseconds` (C + W at low load) at `rate`:
    /// - the window is `windowNanoseconds` when the user set the trial length, else long enough
    ///   for 2,000 arrivals (at least the spec's trial length, at most 10 s);
    /// - warm-up is 10 task times, at least 200 ms and at most 2 s;
    /// - the tail is 4 task times or twice the latency objective, at least 100 ms, at most 5 s.
    package static func forTasks(
        ofNanoseconds taskNanoseconds: UInt64, rate: Double, process: ArrivalProcess, trialNanoseconds: UInt64,
        userSetTrial: Bool, latencySLOMicroseconds: Double?
    ) -> OpenLoopTrial {
        let window: UInt64
        if userSetTrial {
            window = trialNanoseconds
        } else {
            let forArrivals = UInt64(min(1e13, minimumWindowArrivals / rate * 1e9))
            window = min(max(trialNanoseconds, forArrivals), max(trialNanoseconds, maximumDefaultWindowNanoseconds))
        }
        let warmup = min(max(200_000_000, 10 * taskNanoseconds), 2_000_000_000)
        let slo = UInt64(max(0, (latencySLOMicroseconds ?? 0) * 2_000))
        let tail = min(max(100_000_000, 4 * taskNanoseconds, slo), 5_000_000_000)
        var trial = OpenLoopTrial(
            ratePerSecond: rate, process: process, warmupNanoseconds: warmup, windowNanoseconds: window,
            tailNanoseconds: tail)
        trial.latencySLOMicroseconds = latencySLOMicroseconds
        return trial
    }

    /// Total length of the trial, drain excluded.
    package var totalNanoseconds: UInt64 { warmupNanoseconds + windowNanoseconds + tailNanoseconds }
}

/// What an open-loop trial adds to the closed loop's raw record, before any verdict.
package struct OpenLoopRaw: Sendable, Equatable {
    /// The nominal rate offered.
    package var ratePerSecond: Double
    /// Arrivals whose intended time fell in the window.
    package var arrivalsInWindow: Int
    /// Latency of each of those arrivals, intended arrival → end, ns; for one not finished when
    /// the trial stopped, intended arrival → the stop (a lower bound).
    package var latencies: [UInt64]
    /// Those of the window's arrivals not finished when the trial stopped.
    package var unfinished: Int
    /// Backlog (arrived, not finished) seen at each arrival in the window, in order.
    package var backlog: [Int]
    /// How late the dispatcher handed each of the window's arrivals to the pool, ns.
    package var dispatchLags: [UInt64]

    /// Raw figures as recorded.
    package init(
        ratePerSecond: Double, arrivalsInWindow: Int, latencies: [UInt64], unfinished: Int, backlog: [Int],
        dispatchLags: [UInt64]
    ) {
        self.ratePerSecond = ratePerSecond
        self.arrivalsInWindow = arrivalsInWindow
        self.latencies = latencies
        self.unfinished = unfinished
        self.backlog = backlog
        self.dispatchLags = dispatchLags
    }

    /// Mean backlog of the window's last quarter of arrivals minus that of its first quarter.
    package var backlogGrowth: Double {
        let quarter = backlog.count / 4
        guard quarter > 0 else { return 0 }
        let mean = { (slice: ArraySlice<Int>) in Double(slice.reduce(0, +)) / Double(slice.count) }
        return mean(backlog.suffix(quarter)) - mean(backlog.prefix(quarter))
    }
}

/// Runs one open-loop trial: this (the calling) thread hands tasks to the pool at the intended
/// times of the arrival process whatever the pool is doing, the way a service receives
/// requests. Latency counts from the intended time, so a pool that falls behind, or a
/// dispatcher that was late, shows in the percentiles (no coordinated omission).
package struct OpenLoopRunner: Sendable {
    /// The clocks every timestamp comes from.
    package let clocks: any MeasurementClocks

    /// A runner reading `clocks`.
    package init(clocks: any MeasurementClocks = SystemClocks()) {
        self.clocks = clocks
    }

    /// Runs `workload` on `pool` with arrivals from `trial`, drawn from `seed`, with what `watch`
    /// saw over the window.
    package func run(
        pool: any WorkerPool, workload: any Workload, trial: OpenLoopTrial, seed: UInt64,
        watch: any TrialWindowWatch = NoWindowWatch()
    ) throws(PoolSizeError) -> TrialMeasurement {
        WorkerThread.prepareForMeasurement()
        let state = OpenLoop(pool: pool, workload: workload, clocks: clocks)
        let t0 = clocks.wallNanoseconds() + 1_000_000
        var schedule = ArrivalSchedule(trial, seed: seed, start: t0)
        let warmupEnd = t0 + trial.warmupNanoseconds
        let windowEnd = warmupEnd + trial.windowNanoseconds
        let stopAt = windowEnd + trial.tailNanoseconds
        var intended: [UInt64] = []
        intended.reserveCapacity(Int(min(1e7, trial.ratePerSecond * Double(trial.totalNanoseconds) / 1e9 * 1.1)))
        var backlog: [Int] = [], lags: [UInt64] = []
        var windowStart: UInt64? = nil, windowClose: UInt64? = nil
        var usageStart = clocks.processUsage(), usageEnd = usageStart
        var busyStart: UInt64? = nil, busyEnd: UInt64? = nil
        var watched: TrialRecord.Watched = .nothing
        while true {
            let at = schedule.next()
            // The window's edges are read at their own time, not at the next arrival's.
            if windowStart == nil && at >= warmupEnd {
                clocks.sleep(until: warmupEnd)
                busyStart = clocks.machineBusyNanoseconds()
                usageStart = clocks.processUsage()
                windowStart = clocks.wallNanoseconds()
                watch.windowOpened()
            }
            if windowClose == nil && at >= windowEnd {
                clocks.sleep(until: windowEnd)
                usageEnd = clocks.processUsage()
                busyEnd = clocks.machineBusyNanoseconds()
                windowClose = clocks.wallNanoseconds()
                watched = watch.windowClosed()
            }
            if at >= stopAt { break }
            clocks.sleep(until: at)
            let handed = clocks.wallNanoseconds()
            let index = intended.count
            intended.append(at)
            if let start = windowStart, windowClose == nil, at >= start {
                backlog.append(index - Int(state.recorder.completed.value.load(ordering: .relaxed)))
                lags.append(handed > at ? handed - at : 0)
            }
            state.launch(index: index, intended: at)
        }
        let threadsNow = ProcReader.ownThreadCount()
        // The sizes a pool that sizes itself chose up to the window's end, not through the drain.
        let sizeSteps = pool.sizeSteps
        clocks.sleep(until: stopAt)
        state.stop.store(true, ordering: .sequentiallyConsistent)
        let stoppedAt = clocks.wallNanoseconds()
        if !clocks.wait(for: state.group, timeoutSeconds: trial.drainTimeoutSeconds) {
            throw .measurementFailed(
                "\(pool.kind.rawValue) of size \(pool.plannedSize) did not finish its running tasks within \(Int(trial.drainTimeoutSeconds)) s of the trial's end"
            )
        }
        let start = windowStart ?? warmupEnd, end = windowClose ?? windowEnd
        let finished = state.recorder.ends()
        var latencies: [UInt64] = [], unfinished = 0
        for (index, at) in intended.enumerated() where at >= start && at < end {
            if let ended = finished[UInt64(index)] {
                latencies.append(ended > at ? ended - at : 0)
            } else {
                unfinished += 1
                latencies.append(stoppedAt > at ? stoppedAt - at : 0)
            }
        }
        let samples = state.recorder.samples()
        var measurement = TrialMeasurement(
            poolSize: pool.plannedSize, windowStart: start, windowEnd: end, usageAtStart: usageStart,
            usageAtEnd: usageEnd,
            samples: samples, peakConcurrency: TaskRecorder.peak(of: samples),
            processThreads: threadsNow
        ).withMachineBusy(start: busyStart, end: busyEnd).withFailures(state.recorder.failureReasons).withSizeSteps(
            sizeSteps)
        measurement.watched = watched
        measurement.loop = .open(
            OpenLoopRaw(
                ratePerSecond: trial.ratePerSecond, arrivalsInWindow: latencies.count, latencies: latencies,
                unfinished: unfinished, backlog: backlog, dispatchLags: lags))
        return measurement
    }
}

/// Shared state of one open-loop trial.
final class OpenLoop: Sendable {
    let pool: any WorkerPool
    let group = DispatchGroup()
    let stop = Atomic<Bool>(false)
    /// Counts tasks finished (the body ended) as they end, for the backlog the dispatcher reads
    /// at each arrival.
    let recorder: TaskRecorder

    init(pool: any WorkerPool, workload: any Workload, clocks: any MeasurementClocks) {
        self.pool = pool
        self.recorder = TaskRecorder(
            workload: workload, clocks: clocks, threads: pool.plannedSize, countsCompletions: true)
    }

    /// Hands arrival `index`, intended for `intended`, to the pool. Once the trial has stopped,
    /// a task still queued returns without running: the queue is abandoned, not drained.
    /// `submitted` is the intended arrival: queueing delay counts from when the task should have
    /// been handed over, however late the dispatcher was.
    func launch(index: Int, intended: UInt64) {
        group.enter()
        pool.submit { [self] in
            defer { group.leave() }
            if stop.load(ordering: .relaxed) { return }
            recorder.run(task: UInt64(index), submitted: intended)
        }
    }
}
