import PoolSizeModel
import PoolSizeStats

/// When a closed-loop trial's window may close before its planned length: once its throughput
/// is known within `margin` (the half-width of its 95% interval as a share of it, `RateEstimate`)
/// over at least `minimumCompletions` completions and `minimumWindowNanoseconds`, with the
/// window's two halves agreeing within twice the margin (a rate still settling is not known).
package struct TrialStopRule: Sendable, Equatable {
    /// The largest half-width, as a share of the throughput, at which it is known.
    package var margin: Double
    /// Completions the window must hold first.
    package var minimumCompletions: Int
    /// The shortest window.
    package var minimumWindowNanoseconds: UInt64

    /// Completions a window holds at least before its throughput may be called known.
    package static let defaultMinimumCompletions = 300
    /// The shortest window, whatever the task: 0.1 s.
    package static let shortestWindowNanoseconds: UInt64 = 100_000_000
    /// Task periods (C + W) a window spans at least, so that each queue finished several tasks.
    package static let minimumTaskPeriods: UInt64 = 8
    /// How often the window's completions are read and judged.
    package static let checkNanoseconds: UInt64 = 20_000_000
    /// The length of the bins a window's completions are counted in.
    package static let binNanoseconds: UInt64 = 1_000_000

    /// A rule for tasks of `taskNanoseconds` (C + W).
    package init(margin: Double, taskNanoseconds: UInt64, minimumCompletions: Int = Self.defaultMinimumCompletions) {
        self.margin = margin
        self.minimumCompletions = minimumCompletions
        let periods = taskNanoseconds.multipliedReportingOverflow(by: Self.minimumTaskPeriods)
        self.minimumWindowNanoseconds = max(
            Self.shortestWindowNanoseconds, periods.overflow ? UInt64.max : periods.partialValue)
    }

    /// Whether a window of `elapsed` nanoseconds whose completions give `estimate` has its
    /// throughput known.
    package func isKnown(_ estimate: RateEstimate?, elapsed: UInt64) -> Bool {
        guard let estimate, elapsed >= minimumWindowNanoseconds, estimate.events >= minimumCompletions else {
            return false
        }
        return estimate.relativeHalfWidth <= margin && estimate.halvesDifference <= 2 * margin
    }

    /// The estimate from tasks that ended at `ends` (any order), over the window from `start`
    /// to `end`, counted in bins of `binNanoseconds` (whole bins only); nil when the window
    /// has too few bins or no completion.
    package static func estimate(ends: [UInt64], start: UInt64, end: UInt64) -> RateEstimate? {
        var bins = CompletionBins(start: start)
        for ended in ends { bins.add(ended) }
        return bins.estimate(at: end)
    }

    /// How long after a judgement the next one comes, the window having been open `elapsed`:
    /// `checkNanoseconds`, or a twentieth of the window so far when longer.
    package static func interval(afterElapsed elapsed: UInt64) -> UInt64 { max(checkNanoseconds, elapsed / 20) }
}
