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
        guard end > start else { return nil }
        let bins = Int((end - start) / binNanoseconds)
        guard bins > 0 else { return nil }
        var counts = [Int](repeating: 0, count: bins)
        for ended in ends where ended >= start {
            let bin = Int((ended - start) / binNanoseconds)
            if bin < bins { counts[bin] += 1 }
        }
        return RateEstimate(binCounts: counts, binSeconds: Double(binNanoseconds) / 1e9)
    }
}

/// A trial window's completions counted in bins as the trial runs, read from the recorder's
/// buffers a slice at a time (only what was added since the last read), for `TrialStopRule`.
struct CompletionBins {
    let start: UInt64
    private(set) var counts: [Int] = []
    private var cursors: [Int] = []

    init(start: UInt64) { self.start = start }

    /// Counts the tasks `recorder` finished since the last call.
    mutating func read(_ recorder: TaskRecorder) {
        recorder.forEachNewEnd(cursors: &cursors) { ended in
            guard ended >= start else { return }
            let bin = Int((ended - start) / TrialStopRule.binNanoseconds)
            if bin >= counts.count { counts.append(contentsOf: repeatElement(0, count: bin - counts.count + 1)) }
            counts[bin] += 1
        }
    }

    /// The estimate over the whole bins before `now`.
    func estimate(at now: UInt64) -> RateEstimate? {
        guard now > start else { return nil }
        let whole = Int((now - start) / TrialStopRule.binNanoseconds)
        var binned = Array(counts.prefix(whole))
        if binned.count < whole { binned.append(contentsOf: repeatElement(0, count: whole - binned.count)) }
        return RateEstimate(binCounts: binned, binSeconds: Double(TrialStopRule.binNanoseconds) / 1e9)
    }
}
