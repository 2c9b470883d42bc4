import Foundation
import PoolSizeKit
import PoolSizeOutput
import PoolSizeProcess

/// Ctrl-C or SIGTERM during a sweep: every finished trial is already on disk (fsynced row by
/// row), so the process only has to stop its children, say what can be done with what is there,
/// and exit 130.
final class SweepInterrupt {
    private let watch: SignalWatch

    /// Watches from now until `cancel()`; `directory` is the run directory being written.
    init(directory: URL, progress: ProgressLine) {
        // Only its last act: clearing the progress line before the process exits.
        nonisolated(unsafe) let progress = progress
        watch = SignalWatch { _ in
            progress.finish()
            // Commands still running (--exec) stop with the sweep, not after it, and so does a
            // gnuplot rendering the charts.
            LiveChildren.stopAll()
            LiveChildren.stopOrphans()
            ChildProcessRunner.stopAll()
            PoolSizeCommand.printError(Self.advice(directory))
            exit(130)
        }
    }

    func cancel() { watch.cancel() }

    /// What to do next, from what the directory holds now: `--resume` continues a run only once
    /// W/C is measured (lowload.json), so before that the advice is to start again.
    static func advice(_ directory: URL) -> String {
        let path = directory.path
        let run = RunDirectory(directory)
        guard FileManager.default.fileExists(atPath: run.url(.lowLoad).path) else {
            return "interrupted before W/C was measured at low load: no trial ran, so there is nothing to resume; run the sweep again (with --force to write \(path) again)"
        }
        return "interrupted: the trials finished so far are in \(path)/trials.csv and summary.csv; 'poolsize sweep --resume \(path)' (with the same flags) runs the rest, 'poolsize report \(path)' builds the report from them"
    }
}
