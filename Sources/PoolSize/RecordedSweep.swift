import Foundation
import PoolSizeAnalysis
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput
import PoolSizeStats

/// A sweep that records to a run directory: machine.json (the plan and the machine) before the
/// first trial, lowload.json once W/C is known, each trial to trials.csv and summary.csv as it
/// finishes, then recommendation.json, contention.csv and summary.txt. `--resume` continues a
/// run recorded under an equal plan. The report is written from the directory afterwards
/// (`ReportWriter.writeRunReport`), so a run and its report regenerated later are the same.
package final class RecordedSweep: SweepObserver {
    /// Where the sweep's tasks come from.
    /// Sendable unchecked: a measurer is a class with state, and a sweep uses it from one
    /// thread at a time (the one `run` blocks, or the one the async `run` starts).
    package enum Workload: @unchecked Sendable {
        /// The plan's synthetic spec; a file-IO spec's scratch files go under `scratch` (the
        /// system's temporary directory when nil) and are removed after the sweep.
        case spec(scratch: URL?)
        /// A recorded trace, replayed.
        case trace(Trace)
        /// Work of the user's own (`--exec`, `--http`).
        case source(any WorkloadSource)
        /// A pool outside this process, whose trials the measurer runs: the pool inside a server
        /// (`--server`), or a load tool's own concurrency (`--load` alone).
        case external(any TrialMeasuring)
    }

    /// What a finished sweep leaves to tell: both renderings of its result, and the problem that
    /// decides its exit (an integrity violation, no recommendation, an objective not met).
    package struct Outcome {
        /// The console summary, as summary.txt holds it.
        package var summary: String
        /// The same result as one JSON document (`--format json`).
        package var json: String
        /// The run directory.
        package var directory: URL
        /// Raised once every file is written and the summary shown; nil for a clean run.
        package var problem: PoolSizeError?
        /// Every trial of the run, resumed ones included.
        package var records: [TrialRecord] = []
        /// The W/C at low load the run measured or was given.
        package var lowLoad: LowLoadEstimate?
    }

    package let plan: SweepPlan
    package let exporter: ExportManager
    /// Told of every event after it is recorded (the command line's progress).
    private let forward: (any SweepObserver)?
    private let workload: Workload
    /// What is sized, recorded to target.json for a resume from the record alone.
    private let target: Sweep.Target?
    private let facts: MachineFacts
    private var records: [TrialRecord] = []
    private var violations: [String] = []
    /// C and W at low load once measured (or read back on resume): summary.csv's queueing-model column needs them.
    private var lowLoad: LowLoadEstimate?
    private var info: RunInfo
    /// An interrupted run being continued: its low-load estimate and finished trials.
    private let resumed: (lowLoad: LowLoadEstimate, records: [TrialRecord])?

    /// - Parameter mode: `.create` refuses a directory with trials, `.replace` (`--force`)
    ///   overwrites it, `.resume` continues the run recorded there, whose plan must be this one.
    package init(
        plan: SweepPlan, directory: URL, mode: ExportManager.Mode = .create, workload: Workload,
        target: Sweep.Target? = nil, commandLine: [String], forward: (any SweepObserver)? = nil,
        lowLoad given: LowLoadEstimate? = nil
    ) throws(PoolSizeError) {
        self.plan = plan
        self.workload = workload
        self.target = target
        self.forward = forward
        self.facts = MachineProbe.facts(
            coreOverride: plan.cores == MachineProbe.coreCount().effective ? nil : plan.cores)
        var info = RunInfo(plan: plan, facts: facts, commandLine: commandLine)
        if mode == .resume {
            let (recorded, run) = try Self.resumable(directory, plan: plan)
            info = recorded
            // A chain's row may be continued with more sizes: the record says what it measures now.
            if plan.target.server?.chainRow != nil {
                info.plan = plan
                if case let .explicit(list) = plan.sizes { info.sizes = list }
            }
            resumed = (run.lowLoad!, run.records)
            lowLoad = run.lowLoad
            records = run.records
        } else if let given {
            // W/C measured by another run of the same server (a chain's first row): no phase of its own.
            resumed = (given, [])
            lowLoad = given
        } else {
            resumed = nil
        }
        self.info = info
        self.exporter = try ExportManager(directory: directory, mode: mode)
    }

    /// The run in `directory` when this plan may continue it; else why not.
    static func resumable(_ directory: URL, plan: SweepPlan) throws(PoolSizeError) -> (RunInfo, RunData) {
        let run = try RunDirectory(directory).load()
        // The run directory's reader refuses a machine.json without a plan, so a run with one
        // has it.
        guard let recorded = run.info, let recordedPlan = recorded.plan else {
            throw .resumeMismatch(path: directory.path, details: "it has no machine.json, so its plan is unknown")
        }
        if let difference = plan.difference(from: recordedPlan) {
            throw .resumeMismatch(path: directory.path, details: difference)
        }
        let header = try RunDirectory(directory).text(.trials)?.split(separator: "\n", maxSplits: 1).first.map(
            String.init)
        guard header == TrialsCSV.columnNames.joined(separator: ",") else {
            throw .resumeMismatch(
                path: directory.path,
                details:
                    "its trials.csv has other columns than this poolsize writes, so new rows cannot be appended; start it again with \(PoolSizeError.Parameter.replaceRun.mention)"
            )
        }
        guard run.lowLoad != nil else {
            throw .resumeMismatch(
                path: directory.path,
                details:
                    "it stopped before W/C was measured (no lowload.json); start it again with \(PoolSizeError.Parameter.replaceRun.mention)"
            )
        }
        return (recorded, run)
    }

    /// Runs the sweep and writes its files. Throws when the sweep cannot be carried out; a sweep
    /// that ran but ends in a problem returns it in the outcome, after every file is written.
    package func run() throws(PoolSizeError) -> Outcome {
        try exporter.write(JSONExport.serialize(info), to: .machine)
        if let target { try exporter.write(JSONExport.serialize(TargetRecord(target)), to: .target) }
        let burner = CPUBurner()
        let started = try StartedWorkload(workload, plan: plan, burner: burner)
        // What the source holds (connections, processes its tasks left, scratch files) ends with the sweep.
        defer { started.end() }
        let result = try Sweep.run(
            plan, on: started.runner, declaresWaitCPU: started.declaresWaitCPU(plan), observer: self, resume: resumed,
            spelling: .flags)
        let (lowLoad, records, file) = (result.lowLoad, result.records, result.recommendation)
        if let server = started.source?.observedServer {
            // A `poolsize serve` target names its threads and cost per request: the report
            // can then say whether the server, not the pool, was the limit.
            info.server = server
            try exporter.write(JSONExport.serialize(info), to: .machine)
        }
        var shares: [TierShare] = []
        if plan.contend {
            shares = ContentionRunner(burner: burner).run(
                tiers: plan.tiers, cores: plan.cores, seconds: 3, seed: plan.seed)
            try exporter.write(ContentionCSV.serialize(shares), to: .contention)
        }
        if let file { try exporter.write(JSONExport.serialize(file), to: .recommendation) }
        let analysis = RunAnalysis(
            RunData(
                runID: plan.runID, records: records, info: info, lowLoad: lowLoad, recommendation: file,
                contention: shares))
        let summary = ConsoleSummary.render(analysis, spec: plan.spec, cores: facts.cores, lowLoad: lowLoad)
        try exporter.write(summary, to: .summaryText)
        let json = JSONExport.serialize(
            SweepOutput(analysis, runDirectory: exporter.directory.path, workload: plan.spec.name, cores: plan.cores))
        return Outcome(
            summary: summary, json: json, directory: exporter.directory, problem: problem(records, file),
            records: records, lowLoad: lowLoad)
    }

    /// What decides the exit of a sweep that ran: files are written first, so a sweep that
    /// cannot recommend still keeps every trial.
    private func problem(_ records: [TrialRecord], _ file: RecommendationSet?) -> PoolSizeError? {
        if !violations.isEmpty {
            return .integrityViolated(
                details:
                    "\(violations.count) trial(s) let two tasks into a critical section (\(violations.prefix(3).joined(separator: "; "))); see the integrity column of \(exporter.directory.path)/trials.csv"
            )
        }
        // A run of pools that size themselves only has nothing to recommend.
        let onlySelfSized = !records.valid.isEmpty && records.valid.allSatisfy { !$0.pool.sizeOwner.holdsTrialSize }
        if file == nil, !records.isEmpty, !onlySelfSized {
            let why =
                records.noRecommendationCause ?? "no knee could be found in the \(records.valid.count) valid trials"
            return .measurementFailed(
                "no recommendation: \(why); the trials are in \(exporter.directory.path)/trials.csv")
        }
        if let best = file?.best, !best.sizing.reachedItsTarget { return .objectiveNotMet(best.reason) }
        return nil
    }

    package func sweepWillMeasureLowLoad(maximumSeconds: Double) {
        forward?.sweepWillMeasureLowLoad(maximumSeconds: maximumSeconds)
    }

    package func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {
        lowLoad = estimate
        try? exporter.write(JSONExport.serialize(estimate), to: .lowLoad)
        // The planned sizes go into machine.json as soon as they are known, so a report of an
        // interrupted run can name the trials it lacks.
        info.sizes = sizes
        try? exporter.write(JSONExport.serialize(info), to: .machine)
        forward?.sweepMeasuredLowLoad(estimate, sizes: sizes)
    }

    package func sweepWillRunTrial(_ index: Int, of total: Int, trial: PlannedTrial) {
        forward?.sweepWillRunTrial(index, of: total, trial: trial)
    }

    package func sweepExtendingSizes(_ sizes: [Int]) {
        info.sizes = (info.sizes ?? []) + sizes
        try? exporter.write(JSONExport.serialize(info), to: .machine)
        forward?.sweepExtendingSizes(sizes)
    }

    package func sweepFinishedSearch(trials: Int, gridTrials: Int) {
        info.gridTrials = gridTrials
        try? exporter.write(JSONExport.serialize(info), to: .machine)
        forward?.sweepFinishedSearch(trials: trials, gridTrials: gridTrials)
    }

    package func sweepRetryingBusyTrial(otherLoad: Double) {
        forward?.sweepRetryingBusyTrial(otherLoad: otherLoad)
    }

    package func sweepNoted(_ note: String) {
        forward?.sweepNoted(note)
    }

    package func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {
        try exporter.append(record)
        records.append(record)
        try exporter.write(SummaryCSV.serialize(records, arrival: plan.load.arrival, lowLoad: lowLoad), to: .summary)
        if record.integrity == .violated {
            violations.append("\(record.combination) size \(record.poolSize) rep \(record.repetition)")
        }
        try forward?.sweepFinishedTrial(record)
    }
}

extension RunInfo {
    /// What a sweep records before its first trial: the plan whole, and for an explicit list the
    /// sizes it measures (`auto` records its grid once W/C is known).
    init(plan: SweepPlan, facts: MachineFacts, commandLine: [String]) {
        self.init(
            .sweep(plan), poolsizeVersion: PoolSizeVersion.string, poolsizeCommit: PoolSizeVersion.commit,
            commandLine: commandLine, machine: facts,
            sizes: { if case let .explicit(list) = plan.sizes { list } else { nil } }())
    }
}
