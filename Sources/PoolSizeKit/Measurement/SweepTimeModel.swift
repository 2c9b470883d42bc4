import PoolSizeModel

/// Where a sweep's wall time goes, from reading `SweepRunner`, `TrialRunner` and the report
/// step, with the fixed costs timed on short real sweeps:
/// - the low-load phase: rounds of `min(max(0.5 s, 12 task periods), 3 s)` (or `--trial-ms`
///   when longer) with one task in flight, until 40 tasks are seen (a jittered workload needs
///   more for its 1% error), at most 6 s of windows;
/// - a warm-up trial: its window (at most 0.3 s), the drain and the per-trial overhead;
/// - a measured trial: its window (`TrialSettings.forTasks`, which already holds the
///   stagger and warm-up), the drain (up to one task period) and the overhead of building and
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

    /// Building, starting and stopping a pool and fsyncing a row of trials.csv.
    package static let overheadSecondsPerTrial = 0.03
    /// Process start, machine probe, analysis, report and charts.
    package static let fixedSeconds = 1.5

    /// The model of `plan`'s trials.
    package init(plan: SweepPlan) {
        taskSeconds = max(0, plan.spec.cpuMicroseconds + plan.spec.waitMicroseconds) / 1e6
        let settings = plan.trialSettings(taskNanoseconds: UInt64(taskSeconds * 1e9))
        windowSeconds = Double(settings.durationNanoseconds) / 1e9
        jittered = plan.spec.jitter != .none
        let lowLoadWindow = SweepRunner.lowLoadWindowNanoseconds(
            taskNanoseconds: UInt64(taskSeconds * 1e9), trialMilliseconds: plan.trialMilliseconds)
        lowLoadWindowSeconds = Double(lowLoadWindow) / 1e9
    }

    /// One measured trial, all in.
    package var secondsPerTrial: Double { windowSeconds + taskSeconds + Self.overheadSecondsPerTrial }

    /// The low-load phase.
    package var lowLoadSeconds: Double {
        let round = lowLoadWindowSeconds
        let perRound = taskSeconds > 0 ? round / taskSeconds : 40
        var rounds = (40 / max(perRound, 1)).rounded(.up)
        if jittered { rounds = max(rounds, 2) }
        rounds = min(rounds, (SweepRunner.lowLoadSeconds / round).rounded(.up))
        return rounds * (round + taskSeconds + Self.overheadSecondsPerTrial)
    }

    /// The whole sweep with `trials` measured trials and `warmups` warm-ups.
    package func seconds(trials: Double, warmups: Int) -> Double {
        let warmup = min(windowSeconds, 0.3) + taskSeconds + Self.overheadSecondsPerTrial
        return Self.fixedSeconds + lowLoadSeconds + Double(warmups) * warmup + trials * secondsPerTrial
    }
}
