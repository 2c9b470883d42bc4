import Foundation
import PoolSizeKit
import PoolSizeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `Sweep.run()` shows when no observer is given and standard error is a terminal: one
/// line, rewritten in place, saying what the sweep is doing, so a sweep of a minute is not a
/// silent minute. Cleared when the sweep ends; nothing is written where standard error is a
/// file or a pipe (a log stays clean).
final class TerminalProgress: SweepObserver {
    private let write: (String) -> Void
    private var shown = false

    /// Progress written through `write` (tests read it); standard error by default.
    init(write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.write = write
    }

    /// A progress line on standard error when it is a terminal; nil otherwise.
    static func forStandardError() -> TerminalProgress? {
        isatty(STDERR_FILENO) == 1 ? TerminalProgress() : nil
    }

    func sweepWillMeasureLowLoad(maximumSeconds: Double) {
        show("poolsize: measuring W and C with one worker (at most \(Int(maximumSeconds.rounded(.up))) s)")
    }

    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {}

    func sweepWillRunTrial(_ index: Int, of total: Int, trial: PlannedTrial) {
        show("poolsize: trial \(index + 1) of \(total), \(trial.size) queue\(trial.size == 1 ? "" : "s")")
    }

    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {}

    func sweepExtendingSizes(_ sizes: [Int]) {
        show("poolsize: no knee yet, measuring larger sizes too")
    }

    /// Clears the line, so what the program prints next starts at the left edge.
    func finish() {
        if shown { write("\r\u{1B}[2K") }
        shown = false
    }

    private func show(_ line: String) {
        write("\r\u{1B}[2K" + line)
        shown = true
    }
}
