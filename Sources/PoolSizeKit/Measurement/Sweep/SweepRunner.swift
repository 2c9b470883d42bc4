import Foundation
import PoolSizeModel
import PoolSizeStats

extension SweepPlan {
    /// How each trial is driven, for tasks of `taskNanoseconds` (C + W).
    func trialSettings(taskNanoseconds: UInt64) -> TrialSettings {
        var settings = TrialSettings.forTasks(
            ofNanoseconds: taskNanoseconds,
            durationNanoseconds: UInt64(trialMilliseconds ?? spec.trialMilliseconds) * 1_000_000,
            maxTasks: spec.maxTasks)
        settings.stop = trialMargin.map { TrialStopRule(margin: $0, taskNanoseconds: taskNanoseconds) }
        return settings
    }
}

/// What every trial of one sweep shares: the plan, how a trial is driven, the task's length
/// (an open-loop trial's schedule follows from it) and the trials a resumed run already has.
struct SweepContext {
    let plan: SweepPlan
    let settings: TrialSettings
    let taskNanoseconds: UInt64
    let observer: any SweepObserver
    let done: [PlannedTrial: TrialRecord]
}

/// Runs a sweep: W/C at low load, then every (size, repetition) trial in a seeded shuffled
/// order so drift of a shared machine spreads over all sizes instead of biasing the last ones.
/// What a trial runs on is `measurer`'s business; the order, repetitions, busy-trial retries
/// and the extension of `auto` sizes are this type's.
package struct SweepRunner {
    /// Measures each trial.
    package let measurer: any TrialMeasuring
    /// C + W of a task as declared; nil plans trials from the low-load measurement.
    package let declaredTaskNanoseconds: UInt64?

    /// A sweep whose trials `measurer` measures; `declaredTaskNanoseconds` as in `WorkloadSource`.
    package init(measurer: any TrialMeasuring, declaredTaskNanoseconds: UInt64?) {
        self.measurer = measurer
        self.declaredTaskNanoseconds = declaredTaskNanoseconds
    }

    /// Real pools from `pools`, running tasks from `source`.
    package init(
        source: any WorkloadSource, runner: TrialRunner = TrialRunner(), pools: any PoolFactory = SystemPoolFactory()
    ) {
        self.init(
            measurer: PoolTrialMeasurer(runner: runner, pools: pools, source: source),
            declaredTaskNanoseconds: source.declaredTaskNanoseconds)
    }

    /// Measures W/C at low load, then every trial of `plan`, telling `observer` as each finishes.
    /// - Parameter resume: an interrupted run of the same plan: its low-load estimate and the
    ///   trials it finished. Those trials are not run again; the rest run with the seeds and in
    ///   the order an uninterrupted run gives them, so the result is the same.
    package func run(
        _ plan: SweepPlan, observer: any SweepObserver,
        resume: (lowLoad: LowLoadEstimate, records: [TrialRecord])? = nil
    ) throws(PoolSizeError) -> (lowLoad: LowLoadEstimate, records: [TrialRecord]) {
        defer { measurer.sweepEnded() }
        var lowLoad: LowLoadEstimate
        if let resumed = resume?.lowLoad {
            lowLoad = resumed
        } else if !plan.target.measuresLowLoad {
            // A load tool alone prints no CPU split: no task is measured, so there is no W/C
            // (`LowLoadEstimate.tasks` 0) and the outputs say why instead of a formula.
            lowLoad = LowLoadEstimate(waitMicroseconds: [], cpuMicroseconds: [], seconds: 0)
        } else {
            observer.sweepWillMeasureLowLoad(maximumSeconds: Self.lowLoadSeconds)
            lowLoad = try measureLowLoad(plan, targetRelativeError: plan.target.lowLoadRelativeError)
            // A command's C may be mostly its process starting: measured once, beside C.
            lowLoad.processStart = measurer.measureProcessStart()
        }
        let done = Dictionary(
            (resume?.records ?? []).map { (PlannedTrial($0), $0) }, uniquingKeysWith: { first, _ in first })
        let measured = UInt64(
            saturating: max(0, lowLoad.cpuMicrosecondsPerTask + lowLoad.waitMicrosecondsPerTask) * 1_000)
        let taskNanoseconds = declaredTaskNanoseconds ?? measured
        var sizes = try plan.trialSizes(lowLoad: lowLoad, taskNanoseconds: taskNanoseconds)
        if !plan.runsAdaptiveSearch { sizes = Array(Set(sizes).union(plan.ruleSizes)).sorted() }
        observer.sweepMeasuredLowLoad(lowLoad, sizes: sizes)
        let context = SweepContext(
            plan: plan, settings: plan.trialSettings(taskNanoseconds: taskNanoseconds),
            taskNanoseconds: taskNanoseconds,
            observer: observer, done: done)

        for _ in 0..<plan.warmupTrials {
            var warmup = context.settings
            warmup.durationNanoseconds = min(context.settings.durationNanoseconds, 300_000_000)
            let combination = Combination(pool: .queuePool, qos: plan.tiers.first ?? .default, primitive: .none)
            _ = try measurer.measure(
                TrialRequest(combination: combination, size: sizes.max() ?? 1, loop: .closed(warmup), seed: plan.seed),
                cores: plan.cores, readRatio: plan.readRatio)
        }

        var rng = SeededGenerator(seed: plan.seed)
        // The adaptive search and the extension of `auto` sizes look for a throughput knee,
        // which only the closed loop has: an open loop measures every planned trial.
        if plan.runsAdaptiveSearch {
            let prediction = SizingFormula.queueCount(
                cores: Double(plan.cores), targetUtilization: plan.targetUtilization, waitCPURatio: lowLoad.waitCPURatio
            )
            let search = plan.sizeSearch(prediction: prediction)
            // The rules' sizes are the search's to measure: among its sizes, not outside them.
            let records = try runSearch(search, context: context, rng: &rng)
            observer.sweepFinishedSearch(trials: records.count, gridTrials: search.gridTrials * plan.combinations.count)
            return (lowLoad, records)
        }
        var order = PlannedTrial.all(
            plan.combinations, rates: plan.load.trialRates, sizes: sizes, repetitions: plan.repetitions)
        order.shuffle(using: &rng)
        var records = try runTrials(order, context: context)
        // `auto` is meant to find the knee: while some combination's throughput is still rising
        // at the largest size, measure 1.5× and 2× that size too (at most twice).
        if plan.widensAutoSizes {
            for _ in 0..<2 {
                let largest = records.map(\.poolSize).max() ?? 1
                let rising = Dictionary(grouping: records.valid, by: \.combination).filter { _, group in
                    Self.stillRising(group, tolerance: plan.tolerance)
                }
                guard !rising.isEmpty, largest < SizeSelection.maximumSize else { break }
                var more = [Int((Double(largest) * 1.5).rounded()), 2 * largest].filter {
                    $0 <= SizeSelection.maximumSize
                }
                // A database's connection limit: measured at the limit, never past it.
                if let bound = plan.target.sizeLimit {
                    guard largest < bound else { break }
                    more = Array(Set(more.map { min($0, bound) })).sorted()
                }
                records += try runMoreSizes(
                    more, of: rising.keys.sorted(), context: context, after: records.count, rng: &rng)
            }
        }
        return (lowLoad, records)
    }

    /// Sizes measured after the planned ones (`auto` widening toward a knee): said to the
    /// observer, every repetition of each combination in a seeded shuffled order, numbered after
    /// the `after` trials already run.
    func runMoreSizes(
        _ sizes: [Int], of combinations: [Combination], context: SweepContext, after: Int,
        rng: inout SeededGenerator
    ) throws(PoolSizeError) -> [TrialRecord] {
        context.observer.sweepExtendingSizes(sizes)
        var extra = PlannedTrial.all(combinations, rates: [nil], sizes: sizes, repetitions: context.plan.repetitions)
        extra.shuffle(using: &rng)
        return try runTrials(extra, context: context, indexOffset: after)
    }

    /// The curve has not flattened by its largest size: the knee is the largest size, or the
    /// largest size beats the one before it by more than half the tolerance.
    static func stillRising(_ records: [TrialRecord], tolerance: Double) -> Bool {
        let bySize = Dictionary(grouping: records, by: \.poolSize)
        guard let largest = bySize.keys.max() else { return false }
        let points = bySize.map { CurvePoint(size: $0.key, samples: $0.value.map(\.throughputPerSecond)) }
        return Knee.find(points, tolerance: tolerance)?.size == largest
            || records.risesAtLargestSize(tolerance: tolerance)
    }

    /// Runs trials in the given order, handing each record to the observer as it finishes.
    func runTrials(_ order: [PlannedTrial], context: SweepContext, indexOffset: Int = 0) throws(PoolSizeError)
        -> [TrialRecord]
    {
        // Retries are for passing disturbances: a machine that is busy all along would only
        // triple the run, so the whole sweep may retry at most a quarter of its trials.
        var retryBudget = max(2, order.count / 4)
        return try runTrials(order, context: context, indexOffset: indexOffset, retryBudget: &retryBudget)
    }

    /// The one trial loop: `runTrials` drawing retries from a budget shared by several calls
    /// (an adaptive search's batches). A trial a resumed run already has is taken as it is.
    func runTrials(_ order: [PlannedTrial], context: SweepContext, indexOffset: Int, retryBudget: inout Int)
        throws(PoolSizeError) -> [TrialRecord]
    {
        var records: [TrialRecord] = []
        for (offset, trial) in order.enumerated() {
            if let finished = context.done[trial] {
                records.append(finished)
                continue
            }
            context.observer.sweepWillRunTrial(offset, of: order.count, trial: trial)
            guard
                let record = try measureTrial(
                    trial, index: indexOffset + offset, context: context, retryBudget: &retryBudget)
            else { continue }
            records.append(record)
            try context.observer.sweepFinishedTrial(record)
        }
        return records
    }

    /// Measures one trial, running it again (up to `busyRetries` times, while the budget lasts)
    /// when other processes took a large share of the CPUs during it; keeps the quietest attempt.
    func measureTrial(_ trial: PlannedTrial, index: Int, context: SweepContext, retryBudget: inout Int)
        throws(PoolSizeError) -> TrialRecord?
    {
        let plan = context.plan
        var record: TrialRecord?
        for attempt in 0...plan.busyRetries {
            let request = plan.request(
                trial, index: index, settings: context.settings, taskNanoseconds: context.taskNanoseconds)
            let (metrics, integrity) = try measurer.measure(request, cores: plan.cores, readRatio: plan.readRatio)
            metrics.notes.forEach(context.observer.sweepNoted)
            var candidate = TrialRecord(
                plan: plan, combination: trial.combination, poolSize: trial.size, repetition: trial.repetition,
                metrics: metrics, integrity: integrity)
            // The physical limit is the CPUs the process can run on, which `--cores` (sizing
            // for a smaller machine) does not shrink: a figure is impossible only above them.
            // A measurer may know a trial is not the pool's (a server that died in it) before
            // its figures are checked.
            candidate.invalidReason =
                candidate.invalidReason
                ?? TrialValidity.problem(
                    candidate, cores: plan.cores,
                    physicalCores: max(plan.cores, ProcessInfo.processInfo.activeProcessorCount)
                ).map { reason in
                    // Too many failures: the first one's own words say why (a pool that timed out).
                    guard TrialValidity.failedTooOften(candidate), let first = metrics.failureExamples.first else {
                        return reason
                    }
                    return "\(reason); the first: \(first)"
                }
            if record == nil || candidate.otherLoad < record!.otherLoad || candidate.integrity == .violated {
                record = candidate
            }
            if candidate.otherLoad <= plan.busyThreshold || candidate.integrity == .violated || retryBudget == 0 {
                break
            }
            if attempt < plan.busyRetries {
                retryBudget -= 1
                context.observer.sweepRetryingBusyTrial(otherLoad: candidate.otherLoad)
            }
        }
        return record
    }

    /// One queue, one task outstanding: no task ever waits for a CPU, so wall − CPU is the
    /// task's own wait. Runs in rounds until W/C is known to `targetRelativeError` (relative
    /// standard error) with at least 40 tasks, or `maximumSeconds` have passed: a workload
    /// without jitter settles in one round, an exponential one needs hundreds of tasks.
    /// How long the low-load phase measures at most, beyond the task in progress.
    package static let lowLoadSeconds = 6.0

    /// One low-load round's window: 12 task periods, from 0.5 s to 3 s, or `--trial-ms` when
    /// longer. A task of seconds (a slow server, a long command) finishes in no 0.5 s window,
    /// and a longer --trial-ms, which the phase's failure message advises, gives it one.
    package static func lowLoadWindowNanoseconds(taskNanoseconds: UInt64, trialMilliseconds: Int?) -> UInt64 {
        let periods = taskNanoseconds.multipliedReportingOverflow(by: 12)
        let computed = min(max(500_000_000, periods.overflow ? .max : periods.partialValue), 3_000_000_000)
        return max(computed, UInt64(max(trialMilliseconds ?? 0, 0)) * 1_000_000)
    }

    package func measureLowLoad(
        _ plan: SweepPlan, targetRelativeError: Double = 0.01, maximumSeconds: Double = lowLoadSeconds
    ) throws(PoolSizeError) -> LowLoadEstimate {
        let perTask = declaredTaskNanoseconds ?? 0
        var settings = plan.trialSettings(taskNanoseconds: perTask)
        // A server's rounds reuse one server and slice each window, so they need not be trial
        // long: `--trial-ms` lengthens them only once a round has finished no request.
        var server = false
        if case .server = plan.target { server = true }
        settings.durationNanoseconds = Self.lowLoadWindowNanoseconds(
            taskNanoseconds: perTask, trialMilliseconds: server ? nil : plan.trialMilliseconds)
        settings.depthPerSlot = 1
        settings.staggerNanoseconds = 0
        settings.warmupFraction = 0.05
        // The phase has its own rule: rounds until enough tasks are seen.
        settings.stop = nil
        let combination = Combination(pool: .queuePool, qos: plan.tiers.first ?? .default, primitive: .none)
        var waits: [Double] = [], cpus: [Double] = [], seconds = 0.0, rounds = 0
        var errors = 0, examples: [String] = []
        var servingPool: String? = nil, processCPUs: [Double] = []
        var estimate = LowLoadEstimate(waitMicroseconds: [], cpuMicroseconds: [], seconds: 0)
        // The phase is bounded by wall time as well as by measured windows: a round waits for its
        // task to end, and a task that hangs until its timeout leaves a window that holds nothing.
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        repeat {
            let request = TrialRequest(
                combination: combination, size: 1, loop: .closed(settings), lowLoad: true,
                seed: (plan.seed ^ 0x5EED) &+ UInt64(rounds))
            rounds += 1
            let metrics = try measurer.measure(request, cores: plan.cores, readRatio: plan.readRatio).metrics
            errors += metrics.errors
            examples += metrics.failureExamples
            waits += metrics.perTaskWaitMicroseconds
            cpus += metrics.perTaskCPUMicroseconds
            seconds += metrics.wallSeconds
            if server && metrics.perTaskCPUMicroseconds.isEmpty {
                settings.durationNanoseconds = Self.lowLoadWindowNanoseconds(
                    taskNanoseconds: perTask, trialMilliseconds: plan.trialMilliseconds)
            }
            estimate = LowLoadEstimate(waitMicroseconds: waits, cpuMicroseconds: cpus, seconds: seconds)
            if let pool = metrics.servingPool {
                servingPool = pool
                processCPUs += metrics.processCPUMicroseconds
            }
            if let servingPool, !processCPUs.isEmpty {
                estimate.servingPool = servingPool
                estimate.processCPUMicrosecondsPerTask = processCPUs.reduce(0, +) / Double(processCPUs.count)
            }
            // Failed tasks are not in the estimate: past the share a trial may lose, more rounds
            // would only wait for successes that are not coming.
            if errors > 0, Double(errors) > TrialValidity.maximumFailureShare * Double(estimate.tasks + errors) {
                break
            }
        } while (estimate.tasks < 40 || !precise(estimate, targetRelativeError)) && seconds < maximumSeconds
            && elapsed() < maximumSeconds
        // A task that fails alone fails under load too: sizing a pool for it measures failures.
        if errors > 0, Double(errors) > TrialValidity.maximumFailureShare * Double(estimate.tasks + errors) {
            throw .measurementFailed(
                "the task failed \(errors) of \(estimate.tasks + errors) times with one worker, before any pool size was tried: \(examples.first ?? "no reason recorded"); fix it first"
            )
        }
        if estimate.tasks == 0 {
            throw .measurementFailed(
                "no task finished in \(UnitFormat.duration(elapsed())) with one worker\(examples.first.map { ": \($0)" } ?? ""); a task must finish well within a trial (\(PoolSizeError.Parameter.trialMilliseconds.mention), \(PoolSizeError.Parameter.taskTimeout.mention))"
            )
        }
        return estimate
    }

    /// Precise enough: relative error on target, or an absolute error below 0.005 (for W/C near
    /// zero, where a relative error means nothing: it moves N by under 1% of a core).
    func precise(_ estimate: LowLoadEstimate, _ target: Double) -> Bool {
        guard let ratio = estimate.ratio else { return false }
        return ratio.relativeStandardError <= target || ratio.standardError < 0.005
    }
}

extension TrialRecord {
    /// The record of one sweep trial: the metrics' figures, and who ran them.
    package init(
        plan: SweepPlan, combination: Combination, poolSize: Int, repetition: Int, metrics: TrialMetrics,
        integrity: IntegrityReport?
    ) {
        self = metrics.figures
        runID = plan.runID
        workload = plan.spec.name
        pool = combination.pool
        qos = combination.qos
        primitive = combination.primitive
        self.poolSize = poolSize
        self.repetition = repetition
        self.integrity = integrity?.verdict ?? .notApplicable
        criticalSections = integrity?.sections ?? 0
    }
}
