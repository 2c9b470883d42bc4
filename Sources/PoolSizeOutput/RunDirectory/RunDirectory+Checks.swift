import Foundation
import PoolSizeModel

extension RunDirectory {
    /// Largest run file read whole. Reading holds several copies of a file (its text, the
    /// parsed cells, the records), about 16× trials.csv in all: 64 MiB is some 100,000 trials,
    /// far beyond any sweep's, and keeps a damaged or foreign file from taking the machine's memory.
    static let maximumFileBytes = 64 << 20

    /// Refuses a path that is no regular file (a directory, a device such as /dev/zero, a pipe)
    /// or one too large to read whole, naming it; nil when nothing is there.
    func checkReadable(_ url: URL) throws(PoolSizeError) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return false }
        let type = attributes[.type] as? FileAttributeType
        if type == .typeDirectory {
            throw .invalidInput(
                path: url.path, message: "is a directory, not the file poolsize writes there; move it away or rerun")
        }
        guard type == .typeRegular else {
            throw .invalidInput(
                path: url.path, message: "is not a regular file (a device, a pipe or a socket); poolsize reads files")
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard bytes <= Self.maximumFileBytes else {
            throw .invalidInput(
                path: url.path,
                message:
                    "is \(bytes >> 20) MiB, more than the \(Self.maximumFileBytes >> 20) MiB a run file can be (some 100,000 trials); it is not a poolsize run's, or split the sweep"
            )
        }
        return true
    }

    /// Values a sweep cannot have written, which decode as well as real ones: a negative or
    /// zero CPU time per task, a plan for no cores or no repetitions.
    func checkValues(info: RunInfo?, lowLoad: LowLoadEstimate?) throws(PoolSizeError) {
        let damaged = "the file is damaged: rerun the sweep, or delete the file to report from trials.csv alone"
        if let lowLoad {
            let figures: [(String, Double, Bool)] = [
                ("seconds", lowLoad.seconds, lowLoad.seconds.isFinite && lowLoad.seconds >= 0),
                ("tasks", Double(lowLoad.tasks), lowLoad.tasks >= 0),
                (
                    "cpu_microseconds_per_task", lowLoad.cpuMicrosecondsPerTask,
                    lowLoad.cpuMicrosecondsPerTask.isFinite
                        && (lowLoad.cpuMicrosecondsPerTask > 0
                            || (lowLoad.tasks == 0 && lowLoad.cpuMicrosecondsPerTask == 0))
                ),
                (
                    "wait_microseconds_per_task", lowLoad.waitMicrosecondsPerTask,
                    FiniteNumber.isQuantity(lowLoad.waitMicrosecondsPerTask)
                ),
            ]
            if let bad = figures.first(where: { !$0.2 }) {
                throw .invalidInput(
                    path: url(.lowLoad).path,
                    message: "key '\(bad.0)' is \(UnitFormat.number(bad.1)), which no measurement gives; \(damaged)")
            }
        }
        if let plan = info?.plan {
            let counts: [(String, Int, Int)] = [
                ("plan.cores", plan.cores, 1), ("plan.repetitions", plan.repetitions, 1),
                ("plan.warmup_trials", plan.warmupTrials, 0),
            ]
            if let bad = counts.first(where: { $0.1 < $0.2 }) {
                throw .invalidInput(
                    path: url(.machine).path,
                    message: "key '\(bad.0)' is \(bad.1), where a sweep writes \(bad.2) or more; \(damaged)")
            }
            try checkTarget(plan)
        }
    }

    /// A plan whose pool only a target measures (a server's, a load tool's: their size a
    /// command owns) but whose target is poolsize's own pools: an older or edited machine.json
    /// without `plan.target`, which the plan reads as in-process pools. Read so, a server run
    /// would lose its Server section, its rules of thumb and its note on W/C, and a resume would
    /// run it as pools of poolsize's own; the server's command and URL are recorded nowhere else,
    /// so it is refused rather than guessed.
    func checkTarget(_ plan: SweepPlan) throws(PoolSizeError) {
        guard plan.target == .inProcess, let pool = plan.pools.first(where: { $0.sizeOwner == .command }) else {
            return
        }
        throw .invalidInput(
            path: url(.machine).path,
            message:
                "its plan sizes pool '\(pool.rawValue)' (\(pool.summary)) but key 'plan.target' names no such target "
                + "(missing, or in-process), so the run would be read as pools in poolsize's own process; the file is "
                + "older or edited: restore 'plan.target' from the run's original machine.json, or rerun the sweep")
    }
}
