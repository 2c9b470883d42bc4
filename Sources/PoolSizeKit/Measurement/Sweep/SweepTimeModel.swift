import PoolSizeModel

/// Where a sweep's wall time goes, from reading `SweepRunner`, `TrialRunner` and the report
/// step, with the fixed costs timed on short real sweeps:
/// - the low-load phase: rounds of `min(max(0.5 s, 12 task periods), 3 s)` (or `--trial-ms`
///   when longer) with one task in flight, until 40 tasks are seen (a jittered workload needs
///   more for its 1% error), at most 6 s of windows;
/// - a warm-up trial: its window (at most 0.3 s), the drain and the per-trial overhead;
/// - a measured trial: its window (`TrialSettings.forTasks`, which already holds the
///   stagger and warm-up; the measured part closed once the throughput is known, by
///   `TrialStopRule`), the drain (up to one task period) and the overhead of building and
///   stopping the pool and writing the row;
/// - the end: analysis, the report and the charts (gnuplot).
package struct SweepTimeModel: Sendable, Equatable {
    /// C + W of one task, in seconds.
    package var taskSeconds: Double
    /// One measured trial's window, in seconds.
    package var windowSeconds: Double
    /// Whether the workload's durations are drawn at random (the low-load phase then runs longer).
    package var jittered: Bool
    /// One low-load round's window, in seconds.
    package var lowLoadWindowSeconds: Double
    /// C + W of a task running when a trial's window closes, which the drain waits for: the
    /// phase in force then (`phases:`), or `taskSeconds` without phases; at most the drain timeout.
    package var drainTaskSeconds: Double
    /// The longest task of any phase, in seconds (`taskSeconds` without phases).
    package var longestTaskSeconds: Double
    /// The part of a trial's window before its measured part (the stagger and warm-up).
    package var warmupSeconds: Double
    /// When a trial's window may close before its planned length; nil: every window its whole
    /// length (`--trial-ms` given, or `--trial-margin` off).
    package var stop: TrialStopRule?
    /// The workload, whose phases decide what a drain waits for.
    let spec: WorkloadSpec
    /// Whether the sweep has a low-load phase (a load tool alone has none: no W/C to measure).
    let measuresLowLoad: Bool

    /// Building, starting and stopping a pool and fsyncing a row of trials.csv.
    package static let overheadSecondsPerTrial = 0.03
    /// Process start, machine probe, analysis, report and charts.
    package static let fixedSeconds = 1.5

    /// The model of `plan`'s trials.
    package init(plan: SweepPlan) {
        taskSeconds = max(0, plan.spec.cpuMicroseconds + plan.spec.waitMicroseconds) / 1e6
        let settings = plan.trialSettings(taskNanoseconds: UInt64(taskSeconds * 1e9))
        windowSeconds = Double(settings.durationNanoseconds) / 1e9
        warmupSeconds = windowSeconds * settings.warmupFraction
        stop = settings.stop
        jittered = plan.spec.jitter != .none
        measuresLowLoad = plan.target.measuresLowLoad
        let lowLoadWindow = SweepRunner.lowLoadWindowNanoseconds(
            taskNanoseconds: UInt64(taskSeconds * 1e9), trialMilliseconds: plan.trialMilliseconds)
        lowLoadWindowSeconds = Double(lowLoadWindow) / 1e9
        spec = plan.spec
        let closing = spec.means(atMilliseconds: windowSeconds * 1000)
        drainTaskSeconds = min(
            max(0, closing.cpuMicroseconds + closing.waitMicroseconds) / 1e6, Self.drainTimeoutSeconds)
        let base = taskSeconds
        longestTaskSeconds = spec.phases.reduce(base) {
            max($0, max(0, $1.cpuMicroseconds + $1.waitMicroseconds) / 1e6)
        }
    }

    /// One measured trial, all in, its window its whole planned length.
    package var secondsPerTrial: Double { windowSeconds + drainTaskSeconds + Self.overheadSecondsPerTrial }

    /// One measured trial at `throughputPerSecond` tasks a second, all in, its window closed at
    /// the first judgement once the stop rule's minimums are met (its shortest window and its
    /// completions), the throughput then taken as known within the margin. A jittered task's
    /// spread, and an undeclared task's rate, are not known before the sweep: their trials are
    /// planned at their whole length (`secondsPerTrial`).
    package func expectedSecondsPerTrial(throughputPerSecond: Double) -> Double {
        guard let stop, !jittered, throughputPerSecond > 0, throughputPerSecond.isFinite else { return secondsPerTrial }
        let measured = max(0, windowSeconds - warmupSeconds)
        let known = max(
            Double(stop.minimumWindowNanoseconds) / 1e9, Double(stop.minimumCompletions) / throughputPerSecond)
        // The judgements' own times (`TrialRunner.wait`): every 20 ms, or a twentieth of the
        // window so far when longer.
        var judged = 0.0
        while judged < known && judged < measured {
            judged += Double(TrialStopRule.interval(afterElapsed: UInt64(judged * 1e9))) / 1e9
        }
        return warmupSeconds + min(measured, judged) + drainTaskSeconds + Self.overheadSecondsPerTrial
    }

    /// The low-load phase.
    package var lowLoadSeconds: Double {
        guard measuresLowLoad else { return 0 }
        let round = lowLoadWindowSeconds
        let perRound = taskSeconds > 0 ? round / taskSeconds : 40
        var rounds = (40 / max(perRound, 1)).rounded(.up)
        if jittered { rounds = max(rounds, 2) }
        rounds = min(rounds, (SweepRunner.lowLoadSeconds / round).rounded(.up))
        return rounds * (round + taskSeconds + Self.overheadSecondsPerTrial)
    }

    /// Starting one queue of a pool (its thread and first task), rounded up from `poolsize
    /// calibrate`'s thread create → first instruction and pthread create + join (tens of µs): a
    /// pool of thousands takes a sizeable part of a second before its window opens.
    package static let launchSecondsPerQueue = 0.000_1
    /// The longest a trial waits for its in-flight tasks before it fails
    /// (`TrialSettings.drainTimeoutSeconds`).
    package static let drainTimeoutSeconds = TrialSettings(durationNanoseconds: 0).drainTimeoutSeconds

    /// The longest one trial at `queues` can take when no task runs past `longestTaskSeconds`:
    /// its whole planned length (warm-up and window), every queue started first, and the drain:
    /// each queue holds two tasks when the window closes (`TrialSettings.depthPerSlot`), the one
    /// running and the one queued behind it, and a drain longer than the drain timeout fails the
    /// trial.
    package func maximumSecondsPerTrial(queues: Int, longestTaskSeconds: Double) -> Double {
        windowSeconds + Double(queues) * Self.launchSecondsPerQueue + drainSeconds(longestTaskSeconds)
            + Self.overheadSecondsPerTrial
    }

    /// The longest a warm-up trial (at most 0.3 s of window) at `queues` can take.
    package func maximumSecondsPerWarmup(queues: Int, longestTaskSeconds: Double) -> Double {
        min(windowSeconds, 0.3) + Double(queues) * Self.launchSecondsPerQueue + drainSeconds(longestTaskSeconds)
            + Self.overheadSecondsPerTrial
    }

    /// The longest low-load phase: rounds start until `SweepRunner.lowLoadSeconds` have passed,
    /// so the last one may start just before and take its window and one task (one in flight).
    package func maximumLowLoadSeconds(longestTaskSeconds: Double) -> Double {
        guard measuresLowLoad else { return 0 }
        return SweepRunner.lowLoadSeconds + lowLoadWindowSeconds + min(longestTaskSeconds, Self.drainTimeoutSeconds)
            + Self.overheadSecondsPerTrial
    }

    /// Two tasks per queue after the window, at most the drain timeout.
    func drainSeconds(_ longestTaskSeconds: Double) -> Double {
        min(2 * max(0, longestTaskSeconds), Self.drainTimeoutSeconds)
    }

    /// The longest the whole sweep can take with `trials` measured trials (retries included)
    /// and `warmups` warm-ups, none at more than `queues`, no task past `longestTaskSeconds`.
    package func maximumSeconds(trials: Double, warmups: Int, queues: Int, longestTaskSeconds: Double) -> Double {
        Self.fixedSeconds + maximumLowLoadSeconds(longestTaskSeconds: longestTaskSeconds)
            + Double(warmups) * maximumSecondsPerWarmup(queues: queues, longestTaskSeconds: longestTaskSeconds)
            + trials * maximumSecondsPerTrial(queues: queues, longestTaskSeconds: longestTaskSeconds)
    }

    /// The whole sweep with `trials` measured trials and `warmups` warm-ups.
    package func seconds(trials: Double, warmups: Int) -> Double {
        seconds(trialSeconds: trials * secondsPerTrial, warmups: warmups)
    }

    /// The whole sweep whose measured trials take `trialSeconds` together, with `warmups`
    /// warm-ups.
    package func seconds(trialSeconds: Double, warmups: Int) -> Double {
        let window = min(windowSeconds, 0.3)
        // The drain waits for the tasks of the phase in force when the warm-up's window closes.
        let closing = spec.means(atMilliseconds: window * 1000)
        let drain = min(max(0, closing.cpuMicroseconds + closing.waitMicroseconds) / 1e6, Self.drainTimeoutSeconds)
        let warmup = window + drain + Self.overheadSecondsPerTrial
        return Self.fixedSeconds + lowLoadSeconds + Double(warmups) * warmup + trialSeconds
    }
}
