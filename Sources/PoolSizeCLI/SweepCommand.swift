import ArgumentParser
import Foundation
import PoolSize
import PoolSizeAnalysis
import PoolSizeHTTP
import PoolSizeKit
import PoolSizeModel
import PoolSizeOutput

/// `poolsize sweep`: parse → validate → plan → run → export (docs/conventions.md).
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a workload through real pools of many sizes and recommend a queue count.",
        discussion: """
            Writes trials.csv (row by row as trials finish), recommendation.json, machine.json and summary.txt to \
            the run directory, and prints that directory on the last line.
            """)

    @OptionGroup(title: "Workload") var workload: SweepWorkloadOptions
    @OptionGroup(title: "Server") var server: SweepServerOptions
    @OptionGroup(title: "PostgreSQL") var postgres: SweepPostgresOptions
    @OptionGroup(title: "Chain") var chain: SweepChainOptions
    @OptionGroup(title: "Load") var load: SweepLoadOptions
    @OptionGroup(title: "Pools") var axes: SweepAxisOptions
    @OptionGroup(title: "Trials") var trials: SweepTrialOptions
    @OptionGroup(title: "Model") var model: SweepModelOptions
    @OptionGroup(title: "Run") var output: SweepRunOptions

    func run() throws {
        if let space = try trials.knobs() {
            try runChain(space)
            return
        }
        if let resume = output.resume, let record = try ChainRecord.load(URL(fileURLWithPath: resume)),
            try givesOnlyTheRun()
        {
            try resumeChain(record, directory: resume)
            return
        }
        let (plan, chosen, target) = try prepare()
        let estimate = plan.estimate(taskTimeoutSeconds: chosen.taskTimeoutSeconds)
        if output.dryRun {
            print("dry run: \(estimate.summary); nothing measured")
            print(ParameterFlags.word(estimate.plan))
            return
        }
        if let warning = estimate.longWarning { PoolSizeCommand.printError(warning) }
        let directory = output.directory(runID: plan.runID)
        // The charts are written after the sweep: find out now, not after an hour, that they
        // cannot be.
        try AtomicFile.checkWritable(ReportWriter.plotsDirectory(output.plots, runID: plan.runID), flag: "--plots")
        // A baseline that fails would leave the start unmeasured after the low-load phase: run
        // it once now (not in a dry run, which runs no command).
        if case .source(let source) = chosen.run, let command = source as? CommandSource,
            let failure = command.baselineFailure()
        {
            throw PoolSizeError.invalidParameter(
                .commandBaseline,
                message: "\(failure); give the same command with its work left out, one that exits with status 0")
        }
        let progress = SweepProgress(quiet: output.quiet)
        let sweep = try RecordedSweep(
            plan: plan, directory: directory, mode: output.mode, workload: chosen.run, target: target,
            commandLine: Secrets.commandLine(CommandLine.arguments, flag: ParameterFlags.flag), forward: progress)
        sweep.exporter.notices.forEach(PoolSizeCommand.printError)
        // Ctrl-C or SIGTERM from the first trial to the last chart: what is finished is on disk,
        // running children are stopped, and the process says so and exits 130.
        let interrupt = InterruptNotice(directory: directory.path, progress: progress.line)
        defer { interrupt.cancel() }
        let outcome: RecordedSweep.Outcome
        do { outcome = try sweep.run() } catch {
            // The library says to resume; the command line says how, with this run's directory.
            guard case let .serviceUnavailable(parameter, message) = error else { throw error }
            // The record rebuilds the sweep unless it lacks a credential the run was given.
            let again = TargetRecord(target).withheld ? " and the same flags" : ""
            throw PoolSizeError.serviceUnavailable(
                parameter, message: message + " with --resume \(directory.path)\(again)")
        }
        progress.line.finish()
        if output.format == .json {
            print(outcome.json, terminator: "")
        } else {
            print(outcome.summary)
            print(outcome.directory.path)
        }
        // A sweep whose primitive failed its integrity check, or in which no size met the latency
        // objective, still gets its report (which says why); the error and its exit code follow.
        if let problem = outcome.problem {
            switch problem {
            case .integrityViolated, .objectiveNotMet: break
            default: throw problem
            }
        }
        // The report words the library's texts (a trial's reason) with flags, as `poolsize report` does.
        let notices = try ReportWriter.writeRunReport(
            runDirectory: directory, plots: output.plots, wording: ParameterFlags.word
        ).notices
        interrupt.chartsDone()
        notices.forEach(PoolSizeCommand.printError)
        if let problem = outcome.problem { throw problem }
    }

    /// Every flag is checked here, each group by itself, before anything runs or is written;
    /// the workload's files are read once. `--resume DIR` with no flag that shapes the sweep
    /// rebuilds it from the run's record (`SweepCommand+Record`).
    func prepare() throws(PoolSizeError) -> (plan: SweepPlan, workload: PreparedTarget, target: Sweep.Target) {
        try output.check()
        try chain.checkOnePool()
        if let resume = output.resume, let recorded = try recordedSweep(resume) { return recorded }
        return try prepareFromFlags()
    }

    /// The sweep the flags describe; a chain's row passes its own target and sizes.
    func prepareFromFlags(target given: Sweep.Target? = nil, sizes listed: [Int]? = nil) throws(PoolSizeError) -> (
        plan: SweepPlan, workload: PreparedTarget, target: Sweep.Target
    ) {
        let target: Sweep.Target
        if let given { target = given } else { target = try flagTarget() }
        var context = try targetContext(sizes: listed)
        if case .loadTool = target.kind { context.sizes = nil }
        var chosen = try target.prepare(context)
        let load = context.load
        // A server sweep's one pool is the server's; a load tool's alone, the tool's concurrency.
        let axes: SweepAxes
        switch chosen.target {
        case .inProcess: axes = try self.axes.resolve(spec: &chosen.spec)
        case .database: axes = try self.axes.resolve(spec: &chosen.spec, database: true)
        case .server: axes = SweepAxes(pools: [.server], tiers: [.default], primitives: [.none])
        case .loadTool: axes = SweepAxes(pools: [.loadTool], tiers: [.default], primitives: [.none])
        }
        try model.check()
        let resolved = try trials.resolve(
            load: load, loopbackServer: chosen.isLoopbackServer,
            serverSweep: !PoolKind.inProcess.contains(axes.pools[0]), listed: listed)
        if case .loadTool = chosen.target, resolved.sizes == .auto {
            // `auto` places its sizes around the formula's N, which needs a W/C the tool cannot give.
            throw .invalidOption(
                flag: "--sizes",
                message:
                    "auto places sizes around the formula's N, and --load alone measures no W/C; list the sizes (--sizes 1,2,4,8,16)"
            )
        }
        var plan = SweepPlan(
            runID: RunID.make(workload: chosen.spec.name), spec: chosen.spec,
            sizes: resolved.sizes,
            repetitions: resolved.repetitions, warmupTrials: resolved.warmup,
            cores: MachineProbe.coreCount(override: model.cores).effective, targetUtilization: model.targetUtilization,
            tolerance: model.tolerance, seed: trials.seed, pools: axes.pools, tiers: axes.tiers,
            primitives: axes.primitives, readRatio: self.axes.readRatio, trialMilliseconds: trials.trialMilliseconds,
            contend: self.axes.contend, busyRetries: resolved.busyRetries)
        plan.search = resolved.search
        plan.load = load
        plan.target = chosen.target
        try plan.setTrialMargin(trials.trialMargin)
        // A run resumed from flags keeps the margin it was recorded with unless one is given.
        if trials.trialMargin == nil, trials.trialMilliseconds == nil, let recorded = context.resumed {
            plan.trialMargin = recorded.trialMargin
        }
        if let seconds = resolved.budgetSeconds { plan = try plan.fitting(budgetSeconds: seconds) }
        try plan.checkPhases()
        try Self.checkBounded(plan.estimate)
        return (plan, chosen, target)
    }

    /// What a target's checks need from the flags: the sizes (`--sizes-from`'s are checked
    /// against a server's limits as listed sizes are, and `listed` replaces both), the cores,
    /// the trial length, the load, the run being resumed.
    func targetContext(sizes listed: [Int]? = nil) throws(PoolSizeError) -> TargetContext {
        var context = TargetContext(cores: MachineProbe.coreCount(override: model.cores).effective)
        context.trialMilliseconds = trials.trialMilliseconds
        if let listed {
            context.sizes = .explicit(listed)
        } else {
            let sizes = try trials.sizesText()
            context.sizes = try SizeSelection.parse(sizes.text)
            context.sizesParameter = sizes.flag == "--sizes" ? .sizes : .sizesFrom
        }
        context.load = try load.resolve(toolPaced: server.server != nil && server.load != nil)
        context.resumed = output.resume.flatMap { try? RunDirectory(URL(fileURLWithPath: $0)).load().plan }
        return context
    }

    /// The target the flags name: a server's or a load tool's (`--server`, `--load`), a
    /// database's (`--postgres`), else a task on poolsize's own pools.
    func flagTarget() throws(PoolSizeError) -> Sweep.Target {
        if let serverTarget = try server.target(workload: workload, axes: axes, load: load) {
            if postgres.postgres != nil {
                // Name the flag that was given: --load alone starts no server.
                throw .invalidOption(
                    flag: "--postgres",
                    message: server.server != nil
                        ? "sizes a connection pool in this process, not a server's; drop --server"
                        : "sizes a connection pool in this process, and --load runs your tool as the whole load; drop --load (pgbench -c {size} alone sizes its connections) or --postgres"
                )
            }
            return serverTarget
        }
        if let database = try postgres.target(workload: workload, axes: axes) { return database }
        return try workload.target()
    }

    /// The plan alone, for what only needs to know what would run.
    func makePlan() throws(PoolSizeError) -> SweepPlan { try prepare().plan }

    /// Refuses a plan over 24 hours or over this machine's memory, before anything runs.
    static func checkBounded(
        _ estimate: SweepEstimate, memory: Double = Double(ProcessInfo.processInfo.physicalMemory)
    ) throws(PoolSizeError) {
        let fix = "measure fewer sizes, axes or repetitions, or shorter trials (--trial-ms)"
        if estimate.seconds > SweepEstimate.maximumSeconds {
            throw .invalidOption(
                flag: "--sizes/--repeat",
                message: "the plan is \(estimate.summary), over the 24 h a sweep may take; \(fix)")
        }
        if estimate.bytes > memory {
            let available = UnitFormat.memory(memory)
            throw .invalidOption(
                flag: "--sizes/--repeat",
                message: "the plan is \(estimate.summary), over this machine's \(available) of memory; \(fix)")
        }
    }
}

extension ArrivalProcess: ExpressibleByArgument {}

enum RunID {
    /// `20261122-051503-io`: sortable, and unique enough for one person's results directory.
    /// The workload part is cut to 64 characters: the id names directories (results/<run-id>,
    /// plots/<run-id>), and a file name holds at most 255 bytes (a 243-character host name in
    /// --http would otherwise make the default directories impossible).
    static func make(workload: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let safe = workload.prefix(64).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" }
        return "\(formatter.string(from: date))-\(String(safe))"
    }
}
