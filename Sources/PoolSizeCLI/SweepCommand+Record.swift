import Foundation
import PoolSize
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

extension SweepCommand {
    /// The sweep `--resume DIR` continues, rebuilt from the run's record (machine.json's plan
    /// and target.json) when no flag beside it shapes the sweep; nil when flags do, which then
    /// must make the recorded plan (`RecordedSweep` compares them).
    func recordedSweep(_ resume: String) throws(PoolSizeError) -> (
        plan: SweepPlan, workload: PreparedTarget, target: Sweep.Target
    )? {
        guard try givesOnlyTheRun() else { return nil }
        let directory = RunDirectory(URL(fileURLWithPath: resume))
        guard let record = try TargetRecord.load(directory) else {
            // A run recorded before target.json: the flags rebuild it, as they always did.
            return nil
        }
        guard !record.withheld else {
            throw .invalidOption(
                flag: "--resume",
                message:
                    "the run in \(resume) was given a credential (a header, a URL's secret, a password or a token), which a run never records; give the sweep's flags again beside --resume"
            )
        }
        guard var plan = try directory.load().plan else {
            throw .resumeMismatch(path: resume, details: "it has no machine.json, so its plan is unknown")
        }
        var context = TargetContext(cores: plan.cores)
        context.trialMilliseconds = plan.trialMilliseconds
        context.sizes = plan.sizes
        context.load = plan.load
        context.resumed = plan
        if case .loadTool = record.target.kind { context.sizes = nil }
        let prepared = try record.target.prepare(context)
        // The recorded plan is the plan; what the target is now (a database's limits, a
        // server's command) must still be what it recorded, which the resume then checks.
        plan.target = prepared.target
        return (plan, prepared, record.target)
    }

    /// Whether the flags beside `--resume` leave the sweep as the defaults make it: no target
    /// and no setting of the plan (the run's own flags, `--quiet`, `--format`, `--plots`, aside).
    func givesOnlyTheRun() throws(PoolSizeError) -> Bool {
        guard var bare = try? SweepCommand.parse([]) else { return false }
        bare.output = output
        guard try flagTarget() == bare.flagTarget() else { return false }
        var mine = try prepareFromFlags().plan
        let defaults = try bare.prepareFromFlags().plan
        mine.runID = defaults.runID
        return mine == defaults
    }
}
