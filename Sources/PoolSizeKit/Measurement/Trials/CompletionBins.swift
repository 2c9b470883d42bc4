import PoolSizeStats

/// A window's completions counted in bins of `TrialStopRule.binNanoseconds` from its start as
/// they come, for `TrialStopRule`: a closed loop's read from its recorder a slice at a time
/// (only what was added since the last read), the server driver's added as it tallies them.
package struct CompletionBins: Sendable {
    /// The window's start.
    package let start: UInt64
    private var counts: [Int] = []
    /// Per buffer of a `TaskRecorder`, how many of its tasks `read` has counted.
    private var cursors: [Int] = []

    /// No completion yet, in a window from `start`.
    package init(start: UInt64) { self.start = start }

    /// Counts a completion at `ended`; one before the window's start is left out.
    package mutating func add(_ ended: UInt64) {
        guard ended >= start else { return }
        let bin = Int((ended - start) / TrialStopRule.binNanoseconds)
        if bin >= counts.count { counts.append(contentsOf: repeatElement(0, count: bin - counts.count + 1)) }
        counts[bin] += 1
    }

    /// Counts the tasks `recorder` finished since the last call.
    mutating func read(_ recorder: TaskRecorder) {
        var cursors = self.cursors
        recorder.forEachNewEnd(cursors: &cursors) { add($0) }
        self.cursors = cursors
    }

    /// The estimate over the whole bins before `now`; nil with fewer than `RateEstimate` needs.
    package func estimate(at now: UInt64) -> RateEstimate? {
        guard now > start else { return nil }
        let whole = Int((now - start) / TrialStopRule.binNanoseconds)
        var binned = Array(counts.prefix(whole))
        if binned.count < whole { binned.append(contentsOf: repeatElement(0, count: whole - binned.count)) }
        return RateEstimate(binCounts: binned, binSeconds: Double(TrialStopRule.binNanoseconds) / 1e9)
    }
}
