import Foundation
import PoolSizeKit
import PoolSizeModel

/// The sweep's events as the terminal shows them: the progress line on stderr, and a trial
/// that broke its primitive's integrity at once, not only in the summary.
final class SweepProgress: SweepObserver {
    let line: ProgressLine

    init(quiet: Bool) {
        line = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
    }

    /// Until the first trial the terminal showed nothing: a task that never ends (a server
    /// that does not answer) left it silent until its --task-timeout.
    func sweepWillMeasureLowLoad(maximumSeconds: Double) {
        let bound = UnitFormat.duration(maximumSeconds)
        line.update("measuring W/C at low load: one worker, up to \(bound) and the task in progress")
    }

    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {
        line.update(
            "W/C at low load \(UnitFormat.significant(estimate.waitCPURatio)); sizes \(sizes.map(String.init).joined(separator: ","))"
        )
    }

    func sweepWillRunTrial(_ index: Int, of total: Int, trial: PlannedTrial) {
        line.trial(index, of: total, label: trial.description)
    }

    func sweepExtendingSizes(_ sizes: [Int]) {
        line.update(
            "throughput still rising at the largest size: measuring \(sizes.map(String.init).joined(separator: ", ")) too"
        )
    }

    func sweepRetryingBusyTrial(otherLoad: Double) {
        line.update(
            "other processes used \(UnitFormat.percent(otherLoad)) of the CPUs during that trial; running it again")
    }

    func sweepNoted(_ note: String) {
        line.finish()
        PoolSizeCommand.printError("warning: \(note)")
    }

    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {
        guard record.integrity == .violated else { return }
        line.finish()
        PoolSizeCommand.printError(
            "INTEGRITY VIOLATED: \(record.combination) size \(record.poolSize) rep \(record.repetition): \(record.primitive.rawValue) let two tasks into its critical section"
        )
    }
}
