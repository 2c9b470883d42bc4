import Foundation
import PoolSize
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeOutput
import PoolSizeKit

extension SweepCommand {
    /// A chain of pools (`--sizes name=…` per knob of `--server`): the library's `ChainSweep`
    /// runs a server sweep per row of the knobs; this parses the flags into it and prints.
    func runChain(_ given: KnobSpace) throws {
        try output.check(chain: true)
        let runID = RunID.make(workload: "chain")
        guard server.server != nil else {
            throw PoolSizeError.invalidOption(
                flag: "--sizes",
                message:
                    "name=sizes sizes the knobs of a server's command; add --server with a {name} for each knob (--server 'gunicorn -w {workers} --threads {threads} …')"
            )
        }
        let chainSweep = try ChainSweep(
            space: given, target: try flagTarget(), database: chain.database,
            connections: chain.databaseConnections, cores: MachineProbe.coreCount(override: model.cores).effective)
        // `auto` knobs have their sizes now.
        let space = chainSweep.space
        if trials.search == .adaptive, !ChainSearch.searches(space) {
            throw PoolSizeError.invalidOption(
                flag: "--search",
                message:
                    "adaptive searches a chain of two knobs with sizes of their own, and this one has \(space.free.count); drop --search (every cell is measured) or tie a knob to another (pool=threads)"
            )
        }

        let runnable = chainSweep.rows.filter { !$0.sizes.isEmpty }
        // Every row's plan is checked before the first trial: the same flags, its own sizes.
        var template: SweepPlan?
        for row in runnable {
            let plan = try prepareFromFlags(target: chainSweep.target(of: row), sizes: row.sizes).plan
            if template == nil { template = plan }
        }
        guard var template else { return }
        let cells = space.cellCount
        let measured = runnable.map(\.sizes.count).reduce(0, +)
        // The grid up to the search's budget; past it, the search (`--search` decides either way).
        let searching =
            ChainSearch.searches(space) && (trials.search == .adaptive || (trials.search == nil && cells > 15))
        if output.dryRun {
            let how =
                searching
                ? "the search measures at most \(ChainSearch(tolerance: 0, cores: 1).budget) of the \(measured) it may run"
                : "\(measured) to measure in \(runnable.count) server sweep\(runnable.count == 1 ? "" : "s")"
            print(
                "dry run: a chain of \(cells) cell\(cells == 1 ? "" : "s") (\(space.knobs.map(\.written).joined(separator: " "))), \(how); nothing measured"
            )
            for row in chainSweep.rows {
                print("  \(row.label): \(row.swept) \(row.sizes.map(String.init).joined(separator: ","))")
                for (_, reason) in row.excluded { print("    excluded: \(ParameterFlags.word(reason))") }
            }
            return
        }
        template.runID = runID
        try finishChain(
            chainSweep, template: template, context: try targetContext(sizes: runnable[0].sizes),
            searching: searching)
    }

    /// A chain's directory rebuilt from its record (chain.json, its rows' plans) for `--resume DIR`
    /// given alone: the rest of the chain runs as it was asked.
    func resumeChain(_ record: ChainRecord, directory: String) throws {
        try output.check(chain: true)
        guard !record.target.withheld else {
            throw PoolSizeError.invalidOption(
                flag: "--resume",
                message:
                    "the chain in \(directory) was given a credential (a header, a URL's secret, a password or a token), which a run never records; give the sweep's flags again beside --resume"
            )
        }
        let chainSweep = try record.chain()
        let rows = URL(fileURLWithPath: directory).appendingPathComponent("rows")
        let plans = chainSweep.rows.compactMap { row in
            try? RunDirectory(rows.appendingPathComponent(row.directoryName)).load().plan
        }
        guard var template = plans.first else {
            throw PoolSizeError.resumeMismatch(
                path: directory,
                details:
                    "no row of the chain has its plan yet (none measured W/C), so there is nothing to resume; run the sweep again (with --force to write \(directory) again)"
            )
        }
        template.runID = record.runID
        var context = TargetContext(cores: template.cores)
        context.trialMilliseconds = template.trialMilliseconds
        context.load = template.load
        try finishChain(chainSweep, template: template, context: context, searching: record.searching)
    }

    /// Runs `chainSweep` in the run directory, prints its summary and writes its chart.
    private func finishChain(
        _ chainSweep: ChainSweep, template: SweepPlan, context: TargetContext, searching: Bool
    ) throws {
        let space = chainSweep.space
        let runID = template.runID
        let directory = output.directory(runID: runID)
        // The chart is written after the sweep: find out now that it cannot be.
        try AtomicFile.checkWritable(ReportWriter.plotsDirectory(output.plots, runID: runID), flag: "--plots")
        let progress = SweepProgress(quiet: output.quiet)
        let interrupt = InterruptNotice(directory: directory.path, progress: progress.line)
        defer { interrupt.cancel() }
        let outcome = try chainSweep.run(
            template: template, context: context, directory: directory,
            mode: output.mode, commandLine: Secrets.commandLine(CommandLine.arguments, flag: ParameterFlags.flag),
            searching: searching, observer: progress
        ) { row, index, total in
            progress.line.update(
                total > 0
                    ? "row \(index) of \(total): \(row.label)"
                    : total < 0 ? "rules of thumb: \(row.label)" : "search step \(index): \(row.label)")
        }
        progress.line.finish()
        print(ParameterFlags.word(outcome.summary), terminator: "")
        print(directory.path)
        let plots = ReportWriter.plotsDirectory(output.plots, runID: template.runID)
        if let chart = ChainChart.chart(
            outcome.cells, space: space, answer: outcome.answer,
            headline: "a chain of \(space.names.joined(separator: " × ")), \(template.cores) cores")
        {
            let written = try ReportWriter(runDirectory: directory, plotsDirectory: plots).writeCharts([chart])
            interrupt.chartsDone()
            if let message = written.message { PoolSizeCommand.printError(message) }
        }
        if outcome.answer == nil {
            throw PoolSizeError.measurementFailed(
                "no recommendation: no cell of the chain had a valid trial; the cells are in \(directory.path)/chain.csv"
            )
        }
    }
}
