import Foundation
import PoolSizeAnalysis
import PoolSizeHTTP
import PoolSizeModel
import PoolSizeOutput
import PoolSizePostgres

/// A chain of pools sized together: a server whose command takes several knobs (`{workers}`,
/// `{threads}`, `{pool}`), each cell of their sizes started and loaded as a server sweep's
/// trial is, and the database behind it asked first how many connections it allows, so that no
/// cell past its limit runs. It runs as one recorded server sweep per row (the outer knobs held,
/// the last free knob swept as `{size}`) in `rows/` of the chain's directory, which also gets
/// chain.csv (every cell), recommendation.json (`recommended_sizes`) and summary.txt.
package struct ChainSweep: Sendable {
    /// The knobs and their sizes.
    package let space: KnobSpace
    /// The server, its command holding the knobs.
    package let target: Sweep.Target
    /// How many connections a cell opens, when the chain says.
    package let demand: ConnectionDemand?
    /// What the database allows, when one is named.
    package let limit: ConnectionLimit?
    /// The database behind the server (libpq), watched over every trial; nil: none named.
    package let database: String?
    /// How a cell's connections are counted, as written (`workers*pool+2`).
    package let connections: String?
    /// The rows, each a server sweep.
    package let rows: [ChainRow]

    /// Checks the knobs against the server's command, asks the database (when `database` is
    /// given) what it allows and leaves out the cells past it.
    /// - Parameters:
    ///   - database: a libpq connection URL or string of the database behind the server.
    ///   - connections: which knobs multiply to a cell's connections (`workers*pool+2`).
    /// - Parameter cores: the cores `auto` knobs are sized for (`ChainRules.autoSizes`); needed
    ///   only when a knob is `auto`.
    package init(
        space given: KnobSpace, target: Sweep.Target, database: String?, connections: String?, cores: Int? = nil
    ) throws(PoolSizeError) {
        guard case .server(let task) = target.kind else {
            throw .invalidParameter(
                .sizes,
                message:
                    "knobs (name=sizes) size the pools of a server's command; give \(PoolSizeError.Parameter.server.mention) with a {name} for each knob"
            )
        }
        if task.resize != nil {
            throw .invalidParameter(
                .resize,
                message:
                    "resizes one pool; a chain restarts its server at every cell; drop \(PoolSizeError.Parameter.resize.mention)"
            )
        }
        let placeholders = try ServerCommand.knobPlaceholders(in: task.command)
        if try ServerCommand.placeholderNames(in: task.command).contains("size") {
            throw .invalidParameter(
                .server,
                message:
                    "has {size} beside knobs; name that pool as a knob too ({threads} with threads=2,4,8), so each cell says what it set"
            )
        }
        try given.check(placeholders: placeholders)
        let demand = try connections.map { (text: String) throws(PoolSizeError) -> ConnectionDemand in
            try ConnectionDemand.parse(text, space: given)
        }
        // `auto` knobs get their sizes once the connections are known: a pool's follow them.
        var space = given
        if given.knobs.contains(where: { $0.values == .auto }) {
            guard let cores else {
                throw .invalidParameter(.sizes, message: "auto knobs are sized for the cores; list the knobs' sizes")
            }
            space = given.resolvingAuto { name in
                ChainRules.autoSizes(name, space: given, command: task.command, demand: demand, cores: cores)
            }
        }
        if demand != nil && database == nil {
            throw .invalidParameter(
                .databaseConnections,
                message:
                    "counts a cell's connections against a database's limit; add \(PoolSizeError.Parameter.database.mention) URL, or drop it"
            )
        }
        // One of the connections is the sweep's own: the watch that samples the database.
        let limit = try database.map { (url: String) throws(PoolSizeError) -> ConnectionLimit in
            var limit = try ConnectionLimitReader.read(url)
            limit.watching = 1
            return limit
        }
        let rows = try space.rows(command: task.command) { cell in
            guard let demand, let limit else { return nil }
            return demand.exclusion(cell, limit: limit)
        }
        if let demand, let limit, rows.allSatisfy({ $0.sizes.isEmpty }), let smallest = rows.first?.cells.first {
            throw .invalidParameter(
                .sizes,
                message:
                    "every cell needs more connections than the database allows: \(demand.written) needs at least \(demand.connections(smallest)) at the smallest cell (\(smallest)); the server allows \(limit.allowed) for this role (\(limit.explanation)); list smaller sizes"
            )
        }
        self.space = space
        self.target = target
        self.demand = demand
        self.limit = limit
        self.database = database
        self.connections = connections
        self.rows = rows
    }

    /// The server sweep of `row`: its command with the held knobs written in, and a driver
    /// that keeps twice the row's largest cell's threads in flight unless told otherwise.
    package func target(of row: ChainRow) -> Sweep.Target {
        guard case .server(var task) = target.kind else { return target }
        task.command = row.command
        task.database = database
        if task.connections == nil {
            let held = row.held.map(\.value).reduce(1, *)
            let largest = held * (row.sizes.max() ?? 1)
            task.connections = min(
                HTTPLoadDriver.connectionLimit, max(ServerTask.defaultConnectionsFloor, 2 * largest))
        }
        var copy = target
        copy.kind = .server(task)
        return copy
    }

    /// What a finished chain leaves to tell.
    package struct Outcome {
        /// Every cell, in the order of the space.
        package var cells: [ChainCellFigures]
        /// The answer, nil when no cell was measured.
        package var answer: ChainAnswer?
        /// summary.txt's text.
        package var summary: String
        /// The chain's directory.
        package var directory: URL
    }

    /// Runs the chain: every row with cells to measure (the grid), or, when `searching` and the
    /// space has two knobs with sizes, the rows and sizes `ChainSearch` picks from what it has
    /// measured. Each row is a server sweep of `template` (its sizes, spec, target and run id
    /// the row's) recorded in `directory/rows/NAME`; W/C is measured at low load once, by the
    /// first row run, and given to the others. The chain's files are written after each row, so
    /// an interrupted chain keeps its table.
    /// - Parameters:
    ///   - mode: `.resume` keeps what the rows measured and runs what is left; `.replace` runs
    ///     every row again.
    ///   - observer: told of each row's trials (the command's progress); `rowStarted` first,
    ///     with the step's number and the rows in all (0 while searching, -1 for a rule of
    ///     thumb's cell measured after the answer).
    package func run(
        template: SweepPlan, context: TargetContext, directory: URL, mode: ExportManager.Mode,
        commandLine: [String], searching: Bool = false, observer: (any SweepObserver)? = nil,
        rowStarted: (ChainRow, Int, Int) -> Void = { _, _, _ in }
    ) throws(PoolSizeError) -> Outcome {
        try Self.claim(directory, mode: mode)
        try AtomicFile.write(
            JSONExport.serialize(ChainRecord(self, searching: searching, runID: template.runID)),
            to: directory.appendingPathComponent(ChainRecord.fileName))
        var cells = rows.flatMap { row in
            row.cells.map { cell in
                let reason = row.excluded.first { $0.cell == cell }?.reason
                return ChainCellFigures(
                    cell: cell, row: row.directoryName, connections: demand?.connections(cell),
                    status: reason.map { .excluded($0) } ?? .notRun)
            }
        }
        var lowLoad: LowLoadEstimate?
        var measuredRows: Set<Int> = []
        // What a resumed chain's rows measured already.
        if mode == .resume {
            for (index, row) in rows.enumerated() {
                guard let recorded = try? RunDirectory(Self.rowDirectory(directory, row)).load(),
                    recorded.lowLoad != nil
                else { continue }
                lowLoad = lowLoad ?? recorded.lowLoad
                measuredRows.insert(index)
                update(&cells, row: row, records: recorded.records, cores: template.cores)
            }
        }
        var outcome = try write(cells, template: template, to: directory)
        let search = searching && ChainSearch.searches(space)
        var steps: [(row: Int, sizes: [Int])] =
            search ? [] : rows.indices.filter { !rows[$0].sizes.isEmpty }.map { ($0, rows[$0].sizes) }
        var ran = 0
        // Runs `sizes` of the row at `index` (with those it measured already) and rewrites the
        // chain's files.
        func measure(_ index: Int, _ sizes: [Int], total: Int) throws(PoolSizeError) {
            let row = rows[index]
            let done = row.sizes.filter { size in
                cells.contains { $0.cell == row.cell(size: size) && $0.status != .notRun }
            }
            ran += 1
            rowStarted(row, ran, total)
            let rowMode: ExportManager.Mode =
                measuredRows.contains(index) ? .resume : (mode == .resume ? .replace : mode)
            let result = try run(
                row, sizes: Array(Set(done + sizes)).sorted(), lowLoad: rowMode == .resume ? nil : lowLoad,
                template: template, context: context, directory: directory, mode: rowMode, commandLine: commandLine,
                observer: observer)
            lowLoad = lowLoad ?? result.lowLoad
            measuredRows.insert(index)
            update(&cells, row: row, records: result.records, cores: template.cores)
            outcome = try write(cells, template: template, to: directory)
        }
        while true {
            if search {
                let chainSearch = ChainSearch(
                    tolerance: template.tolerance, cores: template.cores,
                    threadKnobs: space.threadKnobs(demand: demand))
                let measured = Dictionary(
                    uniqueKeysWithValues: cells.compactMap { f in f.throughputPerSecond.map { (f.cell, $0) } })
                guard let next = chainSearch.next(rows: rows, measured: measured) else { break }
                try measure(next.row, next.sizes, total: 0)
            } else {
                guard !steps.isEmpty else { break }
                let step = steps.removeFirst()
                try measure(step.row, step.sizes, total: rows.filter { !$0.sizes.isEmpty }.count)
            }
        }
        // Each layer's rule of thumb beside the answer: the cells the answer's rules give, once.
        if let answer = outcome.answer {
            let wanted = rules(at: answer.recommended.cell, cores: template.cores).compactMap(\.cell)
            for (index, row) in rows.enumerated() {
                let sizes = wanted.filter { cell in
                    row.cells.contains(cell) && cells.first { $0.cell == cell }?.status == .notRun
                }.map { $0[row.swept] }
                if !sizes.isEmpty { try measure(index, sizes, total: -1) }
            }
        }
        return outcome
    }

    /// Each layer's rule of thumb applied at `cell` (`ChainRules`), on `cores`.
    package func rules(at cell: KnobCell, cores: Int) -> [ChainRule] {
        guard case .server(let task) = target.kind else { return [] }
        return ChainRules.rules(
            space: space, command: task.command, at: cell, cores: cores, demand: demand, allowed: limit?.allowed)
    }

    /// `cells` with `row`'s measured sizes' figures from its trials.
    private func update(_ cells: inout [ChainCellFigures], row: ChainRow, records: [TrialRecord], cores: Int) {
        for size in Set(records.map(\.poolSize)) {
            guard let cell = row.cell(size: size), let at = cells.firstIndex(where: { $0.cell == cell }) else {
                continue
            }
            cells[at] = ChainCellFigures(
                cell: cell, row: row.directoryName, connections: demand?.connections(cell),
                trials: records.filter { $0.poolSize == size }, cores: cores)
        }
    }

    static func rowDirectory(_ directory: URL, _ row: ChainRow) -> URL {
        directory.appendingPathComponent("rows").appendingPathComponent(row.directoryName)
    }

    /// One row's server sweep at `sizes`; its trials, resumed ones included, and its W/C.
    private func run(
        _ row: ChainRow, sizes: [Int], lowLoad: LowLoadEstimate?, template: SweepPlan, context: TargetContext,
        directory: URL, mode: ExportManager.Mode, commandLine: [String], observer: (any SweepObserver)?
    ) throws(PoolSizeError) -> (records: [TrialRecord], lowLoad: LowLoadEstimate?) {
        let rowDirectory = Self.rowDirectory(directory, row)
        var measuring = row
        measuring.sizes = sizes
        let rowTarget = target(of: measuring)
        var context = context
        context.sizes = .explicit(sizes)
        let prepared = try rowTarget.prepare(context)
        var plan = template
        plan.sizes = .explicit(sizes)
        plan.search = .grid
        plan.spec = prepared.spec
        plan.spec.name = template.spec.name
        plan.target = prepared.target
        if case .server(var setup) = prepared.target {
            setup.chainRow = row.label
            plan.target = .server(setup)
        }
        plan.pools = [.server]
        plan.runID = "\(template.runID)-\(row.directoryName)"
        if mode == .resume, let recorded = try? RunDirectory(rowDirectory).load().info?.plan {
            plan.runID = recorded.runID
        }
        let sweep = try RecordedSweep(
            plan: plan, directory: rowDirectory, mode: mode, workload: prepared.run, target: rowTarget,
            commandLine: commandLine, forward: observer, lowLoad: lowLoad)
        let outcome = try sweep.run()
        return (outcome.records, outcome.lowLoad)
    }

    /// Makes the chain's directory, or refuses one that holds a chain when not told to replace
    /// or resume it.
    private static func claim(_ directory: URL, mode: ExportManager.Mode) throws(PoolSizeError) {
        let table = directory.appendingPathComponent("chain.csv")
        if mode == .create, FileManager.default.fileExists(atPath: table.path) {
            throw .runDirectoryTaken(
                path: directory.path,
                reason:
                    "it holds a chain's run (chain.csv); continue it with \(PoolSizeError.Parameter.resumeRun.mention), replace it with \(PoolSizeError.Parameter.replaceRun.mention), or name another directory"
            )
        }
        try AtomicFile.createDirectory(directory.appendingPathComponent("rows"))
    }

    /// chain.csv, recommendation.json and summary.txt of `cells` as they stand.
    private func write(
        _ cells: [ChainCellFigures], template: SweepPlan, to directory: URL
    ) throws(PoolSizeError) -> Outcome {
        let answer = ChainRecommender.answer(
            cells, space: space, tolerance: template.tolerance, cores: template.cores, demand: demand)
        let applied = answer.map { self.rules(at: $0.recommended.cell, cores: template.cores) } ?? []
        let summary = ChainSummary.render(
            cells, space: space, answer: answer, limit: limit, demand: demand, rules: applied, cores: template.cores)
        try AtomicFile.write(
            ChainCSV.serialize(cells, knobs: space.names), to: directory.appendingPathComponent("chain.csv"))
        try AtomicFile.write(
            JSONExport.serialize(
                ChainRecommendationFile(
                    space: space, cells: cells, answer: answer, tolerance: template.tolerance, limit: limit,
                    demand: demand, rules: applied)),
            to: directory.appendingPathComponent("recommendation.json"))
        try AtomicFile.write(summary, to: directory.appendingPathComponent("summary.txt"))
        return Outcome(cells: cells, answer: answer, summary: summary, directory: directory)
    }
}
