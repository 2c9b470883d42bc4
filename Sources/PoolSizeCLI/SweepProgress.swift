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

    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {
        guard record.integrity == .violated else { return }
        line.finish()
        PoolSizeCommand.printError(
            "INTEGRITY VIOLATED: \(record.combination) size \(record.poolSize) rep \(record.repetition): \(record.primitive.rawValue) let two tasks into its critical section"
        )
    }
}
