import Foundation
import PoolSizeKit
import PoolSizeOutput
import PoolSizeProcess
import Synchronization

/// Ctrl-C during a sweep: every finished trial is already on disk (fsynced row by row), so the
/// process only has to say where they are and what can be done with them, then exit 130.
final class InterruptNotice {
    private let watch: SignalWatch
    /// Set once a signal came: the handler is on the way to exit 130 (one sweep per process).
    private static let exiting = Atomic(false)

    /// Ctrl-C (SIGINT) and SIGTERM (a CI job cancelled, `kill`) end the sweep the same way.
    init(directory: String, progress: ProgressLine) {
        // Only its last act: clearing the progress line before the process exits.
        nonisolated(unsafe) let progress = progress
        watch = SignalWatch { _ in
            Self.exiting.store(true, ordering: .sequentiallyConsistent)
            // No server starts from here on, so none that the stop below cuts short is recorded
            // as a trial that failed.
            ServerProcess.beginStopping()
            progress.finish()
            // Commands still running (--exec) stop with the sweep, not after it, and so does a
            // gnuplot rendering the charts.
            LiveChildren.stopAll()
            LiveChildren.stopOrphans()
            ChildProcessRunner.stopAll()
            // A server a server sweep started, with everything in its session; its guardian
            // stops what left the session when this process exits.
            ServerProcess.stopAll()
            PoolSizeCommand.printError(Self.advice(directory))
            exit(130)
        }
    }

    func cancel() { watch.cancel() }

    /// Called before a failure is reported: after a signal, the failure is the stop's own (a
    /// server the handler stopped, or refused to start), and the handler is exiting with 130,
    /// so this thread waits for that instead of exiting first with the failure's code.
    static func waitIfExiting() {
        guard exiting.load(ordering: .sequentiallyConsistent) else { return }
        while true { pause() }
    }

    /// Called when the charts are done, before anything about them is printed: after a signal,
    /// gnuplot died of it and the handler is exiting with 130, so this thread waits for that
    /// instead of reporting a failed chart and exiting 0 first.
    func chartsDone() {
        guard Self.exiting.load(ordering: .sequentiallyConsistent) else { return }
        while true { pause() }
    }

    /// What to do next, from what the directory holds when the signal comes: `--resume`
    /// continues a run only once W/C is measured (lowload.json), so before that the advice is
    /// to start again.
    static func advice(_ directory: String) -> String {
        if FileManager.default.fileExists(atPath: directory + "/chain.csv") {
            return
                "interrupted: the chain's cells measured so far are in \(directory)/chain.csv and its rows' trials in \(directory)/rows; 'poolsize sweep --resume \(directory)' (with the same flags) runs the rest"
        }
        guard FileManager.default.fileExists(atPath: RunDirectory(URL(fileURLWithPath: directory)).url(.lowLoad).path)
        else {
            return
                "interrupted before W/C was measured at low load: no trial ran, so there is nothing to resume; run the sweep again (with --force to write \(directory) again)"
        }
        return
            "interrupted: the trials finished so far are in \(directory)/trials.csv and summary.csv; 'poolsize sweep --resume \(directory)' (with the same flags) runs the rest, 'poolsize report \(directory)' builds the report from them"
    }
}
