import Foundation
import PoolSizeObserve
import PoolSizeProcess
import Synchronization

/// Ctrl-C and SIGTERM during `observe`, by phase. While it observes, a signal stops the sampling
/// (and a counter's read in progress): the figures so far are printed and written. Once the
/// observation is saved and its charts render, a signal stops gnuplot with observe, which says
/// where the files are and exits 130, as an interrupted sweep does (`InterruptNotice`).
final class ObserveInterrupt: Sendable {
    private let stop: StopSignal
    /// The run directory once its observation is saved; nil while observing.
    private let saved = Mutex<String?>(nil)
    /// Set once a signal came while the charts rendered: its handler is on the way to exit 130.
    private let exiting = Mutex(false)

    init(stop: StopSignal) {
        self.stop = stop
    }

    /// The run directory holds the observation; the charts and report come next.
    func rendering(_ directory: String) {
        saved.withLock { $0 = directory }
    }

    /// Called for each signal on SignalWatch's thread.
    func signal() {
        guard let directory = saved.withLock({ $0 }) else {
            stop.stop()
            return
        }
        exiting.withLock { $0 = true }
        ChildProcessRunner.stopAll()
        PoolSizeCommand.printError(Self.advice(directory))
        exit(130)
    }

    /// Called when the charts are done, before anything about them is printed: after a signal,
    /// gnuplot died of it and the handler is exiting with 130, so this thread waits for that
    /// instead of reporting a failed chart and exiting 0 first.
    func chartsDone() {
        guard exiting.withLock({ $0 }) else { return }
        while true { pause() }
    }

    /// What is on disk when the charts are cut short, and how to finish them.
    static func advice(_ directory: String) -> String {
        "observe: interrupted while the charts rendered: the observation is in \(directory)/observation.json and "
            + "summary.txt; 'poolsize report \(directory)' draws the charts and writes the report from it"
    }
}
