import Foundation
import PoolSize
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput
import PoolSizeStats
import PoolSizeAnalysis
import PoolSizeHTTP
import PoolSizeProcess

/// Wires a sweep's events to the export manager and the progress line. Holds no logic of its
/// own: the kit measures, the model recommends, the output target formats.
final class SweepSession: SweepObserver {
    let plan: SweepPlan
    let exporter: ExportManager
    let progress: ProgressLine
    let commandLine: [String]
    /// `--format`: the console summary (table) or one JSON document (json) on standard output.
    var format: OutputFormat = .table
    let facts: MachineFacts
    private var records: [TrialRecord] = []
    private var violations: [String] = []
    /// C and W at low load once measured (or read back on resume): summary.csv's queueing-model column needs them.
    private var lowLoad: LowLoadEstimate?
    private var info: RunInfo
    private let trace: Trace?
    /// The user's own task (`--exec`, `--http`), replacing the spec's synthetic one.
    private let custom: (any WorkloadSource)?
    private let scratch: URL?
    /// An interrupted run being continued: its low-load estimate and finished trials.
    private let resumed: (lowLoad: LowLoadEstimate, records: [TrialRecord])?

    /// - Parameter mode: `.create` refuses a directory with trials, `.replace` (`--force`)
    ///   overwrites it, `.resume` continues the run recorded there, whose plan must be this one.
    /// - Parameter trace: replayed instead of the synthetic spec, when given (`--trace`).
    init(plan: SweepPlan, directory: URL, commandLine: [String], quiet: Bool, mode: ExportManager.Mode = .create, trace: Trace? = nil, custom: (any WorkloadSource)? = nil, scratch: URL? = nil) throws(PoolSizeError) {
        self.plan = plan
        self.scratch = scratch
        self.trace = trace
        self.custom = custom
        self.commandLine = commandLine
        self.facts = MachineProbe.facts(coreOverride: plan.cores == MachineProbe.coreCount().effective ? nil : plan.cores)
        var info = RunInfo(plan: plan, facts: facts, commandLine: commandLine)
        if mode == .resume {
            let run = try RunDirectory(directory).load()
            guard let recorded = run.info else {
                throw .resumeMismatch(path: directory.path, details: "it has no machine.json, so its plan is unknown")
            }
            guard let recordedPlan = recorded.plan else {
                throw .resumeMismatch(path: directory.path, details: "its machine.json records no plan (written by an earlier poolsize), so whether this sweep is the same cannot be told; start it again with --force")
            }
            if let difference = plan.difference(from: recordedPlan) { throw .resumeMismatch(path: directory.path, details: difference) }
            let header = try RunDirectory(directory).text(.trials)?.split(separator: "\n", maxSplits: 1).first.map(String.init)
            guard header == TrialsCSV.columns.joined(separator: ",") else {
                throw .resumeMismatch(path: directory.path, details: "its trials.csv has other columns (written by an earlier poolsize), so new rows cannot be appended; start it again with --force")
            }
            guard let lowLoad = run.lowLoad else {
                throw .resumeMismatch(path: directory.path, details: "it stopped before W/C was measured (no lowload.json); start it again with --force")
            }
            info = recorded
            resumed = (lowLoad, run.records)
            self.lowLoad = lowLoad
            records = run.records
        } else {
            resumed = nil
        }
        self.info = info
        self.exporter = try ExportManager(directory: directory, mode: mode)
        self.progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) != 0)
    }

    /// Runs the sweep and writes its files; the caller holds an `InterruptNotice` across this
    /// and the report that follows.
    func run() throws(PoolSizeError) {
        try exporter.write(JSONExport.serialize(info), to: .machine)
        let burner = CPUBurner()
        // A file-IO workload's scratch files live for the sweep and are removed after it.
        let files = plan.spec.doesFileIO && custom == nil && trace == nil ? try FileScratch(directory: scratch) : nil
        defer { files?.remove() }
        // The HTTP client's connections close when the sweep ends, not when the process does.
        let http = custom as? HTTPSource
        defer { http?.shutdown() }
        // Anything a command left running outside its process group ends with the sweep.
        defer { if custom is CommandSource { LiveChildren.stopOrphans() } }
        let source: any WorkloadSource = custom ?? trace.map { TraceSource(trace: $0, burner: burner) } ?? SyntheticSource(spec: plan.spec, burner: burner, scratch: files)
        let result = try Sweep(plan: plan, source: source).run(observer: self, resume: resumed)
        let (lowLoad, records, file) = (result.lowLoad, result.records, result.recommendation)
        if let server = http?.observedServer {
            // A `poolsize serve` target names its threads and cost per request: the report
            // can then say whether the server, not the pool, was the limit.
            info.server = server
            try exporter.write(JSONExport.serialize(info), to: .machine)
        }
        var shares: [TierShare] = []
        if plan.contend {
            progress.update("contention: \(plan.tiers.count) tiers at once")
            shares = ContentionRunner(burner: burner).run(tiers: plan.tiers, cores: plan.cores, seconds: 3, seed: plan.seed)
            try exporter.write(ContentionCSV.serialize(shares), to: .contention)
        }
        progress.finish()
        if let file { try exporter.write(JSONExport.serialize(file), to: .recommendation) }
        let analysis = RunAnalysis(RunData(runID: plan.runID, records: records, info: info, lowLoad: lowLoad, recommendation: file, contention: shares))
        let summary = ConsoleSummary.render(analysis, spec: plan.spec, cores: facts.cores, lowLoad: lowLoad)
        try exporter.write(summary, to: .summaryText)
        if format == .json {
            print(JSONExport.serialize(SweepOutput(analysis, runDirectory: exporter.directory.path, workload: plan.spec.name, cores: plan.cores)), terminator: "")
        } else {
            print(summary)
            print(exporter.directory.path)
        }
        if !violations.isEmpty {
            throw .integrityViolated(details: "\(violations.count) trial(s) let two tasks into a critical section (\(violations.prefix(3).joined(separator: "; "))); see the integrity column of \(exporter.directory.path)/trials.csv")
        }
        // Files are written first: a sweep that cannot recommend still keeps every trial.
        if file == nil, !records.isEmpty {
            let why = records.noRecommendationCause ?? "no knee could be found in the \(records.valid.count) valid trials"
            throw .measurementFailed("no recommendation: \(why); the trials are in \(exporter.directory.path)/trials.csv")
        }
        if let best = file?.best, best.latency?.met == false {
            throw .objectiveNotMet(best.reason)
        }
    }

    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {
        lowLoad = estimate
        try? exporter.write(JSONExport.serialize(estimate), to: .lowLoad)
        // The planned sizes go into machine.json as soon as they are known, so a report of an
        // interrupted run can name the trials it lacks.
        info.sizes = sizes
        try? exporter.write(JSONExport.serialize(info), to: .machine)
        progress.update("W/C at low load \(UnitFormat.significant(estimate.waitCPURatio)); sizes \(sizes.map(String.init).joined(separator: ","))")
    }

    func sweepWillRunTrial(_ index: Int, of total: Int, trial: PlannedTrial) {
        progress.trial(index, of: total, label: trial.description)
    }

    func sweepExtendingSizes(_ sizes: [Int]) {
        info.sizes = (info.sizes ?? []) + sizes
        try? exporter.write(JSONExport.serialize(info), to: .machine)
        progress.update("throughput still rising at the largest size: measuring \(sizes.map(String.init).joined(separator: ", ")) too")
    }

    func sweepFinishedSearch(trials: Int, gridTrials: Int) {
        info.gridTrials = gridTrials
        try? exporter.write(JSONExport.serialize(info), to: .machine)
    }

    func sweepRetryingBusyTrial(otherLoad: Double) {
        progress.update("other processes used \(UnitFormat.percent(otherLoad)) of the CPUs during that trial; running it again")
    }

    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) {
        try exporter.append(record)
        records.append(record)
        try exporter.write(SummaryCSV.serialize(records, arrival: info.arrival, lowLoad: lowLoad), to: .summary)
        if record.integrity == .violated {
            let what = "\(record.combination) size \(record.poolSize) rep \(record.repetition)"
            violations.append(what)
            progress.finish()
            PoolSizeCommand.printError("INTEGRITY VIOLATED: \(what): \(record.primitive.rawValue) let two tasks into its critical section")
        }
    }
}

extension RunInfo {
    /// What a sweep records before its first trial.
    init(plan: SweepPlan, facts: MachineFacts, commandLine: [String]) {
        self.init(
            runID: plan.runID, poolsizeVersion: PoolSizeVersion.string, poolsizeCommit: PoolSizeVersion.commit,
            commandLine: commandLine, seed: plan.seed, workload: plan.spec, repetitions: plan.repetitions,
            warmupTrials: plan.warmupTrials, pools: plan.pools, tiers: plan.tiers, primitives: plan.primitives,
            targetUtilization: plan.targetUtilization, tolerance: plan.tolerance, machine: facts,
            sizes: { if case let .explicit(list) = plan.sizes { list } else { nil } }(), autoSizes: plan.sizes == .auto)
        search = plan.search
        arrival = plan.load.arrival
        self.plan = plan
        trialMilliseconds = plan.trialMilliseconds
    }
}

/// `[12/48] size 32 rep 2 · ETA 14s` on stderr, redrawn in place; silent when not a terminal.
final class ProgressLine {
    let enabled: Bool
    private var started = Date()

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func trial(_ index: Int, of total: Int, label: String) {
        if index == 0 { started = Date() }
        let elapsed = Date().timeIntervalSince(started)
        let eta = index > 0 ? " · ETA \(Int(saturating: elapsed / Double(index) * Double(total - index)))s" : ""
        update("[\(index + 1)/\(total)] \(label)\(eta)")
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

/// Ctrl-C during a sweep: every finished trial is already on disk (fsynced row by row), so the
/// process only has to say where they are and how to build the report from them, then exit 130.
final class InterruptNotice {
    private let watch: SignalWatch

    /// Ctrl-C (SIGINT) and SIGTERM (a CI job cancelled, `kill`) end the sweep the same way.
    init(directory: String, progress: ProgressLine) {
        // Only its last act: clearing the progress line before the process exits.
        nonisolated(unsafe) let progress = progress
        watch = SignalWatch { _ in
            progress.finish()
            // Commands still running (--exec) stop with the sweep, not after it, and so does a
            // gnuplot rendering the charts.
            LiveChildren.stopAll()
            LiveChildren.stopOrphans()
            ChildProcessRunner.stopAll()
            PoolSizeCommand.printError("interrupted: the trials finished so far are in \(directory)/trials.csv and summary.csv; 'poolsize sweep --resume \(directory)' (with the same flags) runs the rest, 'poolsize report \(directory)' builds the report from them")
            exit(130)
        }
    }

    func cancel() { watch.cancel() }
}
