import Foundation
import PoolSizeModel

extension CommandSource {
    /// What starting this command's program costs by itself (`ProcessStart`): `runs` starts
    /// through the tasks' own spawn path, with no arguments and the dynamic loader exiting
    /// before the program's code runs; the medians of their C (the pool thread's spawn and the
    /// child's rusage) and wall time. nil when the program is not one the loader stops
    /// (`ExecutableImage.loaderStops`: a static binary would run with no arguments) or a start
    /// failed.
    ///
    /// Why this and not the program with `--version` or `--help`: those run the program's own
    /// code, which may not know them, may do real work with them, or start differently; an empty
    /// argument list is no safer (`make` builds). The loader's start is the part every run of
    /// the program pays whatever it is asked, so where it alone is most of a task's C the sweep
    /// measures process start-up, not the work.
    ///
    /// With a `baseline` command, that command is started instead, whole: it runs the program's
    /// own start-up (an interpreter's imports, a client's connection) that the loader's start
    /// leaves out.
    package func measureProcessStart(runs: Int = 5) -> ProcessStart? {
        guard runs > 0 else { return nil }
        let baselineSource = baselineSource()
        guard baselineSource != nil || ExecutableImage.loaderStops(executable) else { return nil }
        let workload = CommandWorkload(source: baselineSource ?? self)
        var cpus: [Double] = [], walls: [Double] = []
        for run in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = workload.execute(task: UInt64(run), loaderOnly: baselineSource == nil)
            let wall = DispatchTime.now().uptimeNanoseconds - start
            guard outcome.failure == nil else { return nil }
            cpus.append(Double(outcome.childCPUNanoseconds + (outcome.cpuNanoseconds ?? 0)) / 1e3)
            walls.append(Double(wall) / 1e3)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return ProcessStart(
            program: executable, runs: runs, cpuMicroseconds: median(cpus), wallMicroseconds: median(walls),
            baseline: baseline.map { Secrets.commandText(ShellWords.join($0)) })
    }

    /// Runs the baseline command once and says why it cannot serve: nil when it exits with
    /// status 0 (or there is none). Checked before a sweep, so a baseline that fails is refused
    /// up front instead of leaving the start unmeasured.
    package func baselineFailure() -> String? {
        baselineSource().flatMap { CommandWorkload(source: $0).execute(task: 0).failure }
    }

    /// The baseline as a command source of its own: same timeout, output discarded.
    private func baselineSource() -> CommandSource? {
        guard let baseline, let baselineExecutable else { return nil }
        return CommandSource(
            arguments: baseline, executable: baselineExecutable, timeoutSeconds: timeoutSeconds)
    }
}
