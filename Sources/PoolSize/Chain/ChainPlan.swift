import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeOutput

/// A chain of pools as the library's `Sweep` runs it (`Sweep.Target.chain`): the `ChainSweep`
/// of the target's knobs, the plan each row starts from (the configuration's, with the first
/// row's server), and whether the space is searched (past 15 cells). The rows are recorded in
/// a temporary directory, removed once the result is read from it.
package struct ChainPlan: Sendable {
    package var sweep: ChainSweep
    package var template: SweepPlan
    package var context: TargetContext
    package var searching: Bool

    /// Checks the knobs against the server's command, asks the database what it allows, and
    /// prepares the first row, so that a mistake is said before any trial.
    init(target: Sweep.Target, plan: SweepPlan, context: TargetContext) throws(PoolSizeError) {
        guard case .server(var task) = target.kind, let knobs = task.knobs else {
            throw .invalidParameter(.sizes, message: "a chain needs a server's command with a {name} for each knob")
        }
        guard let space = try KnobSpace.parse(knobs) else {
            throw .invalidParameter(.sizes, message: "a chain needs at least one knob (workers=1,2,4)")
        }
        let (database, connections) = (task.database, task.databaseConnections)
        (task.knobs, task.database, task.databaseConnections) = (nil, nil, nil)
        var server = target
        server.kind = .server(task)
        sweep = try ChainSweep(
            space: space, target: server, database: database, connections: connections, cores: plan.cores)
        guard let first = sweep.rows.first(where: { !$0.sizes.isEmpty }) else {
            throw .invalidParameter(.sizes, message: "no cell of the chain can run")
        }
        var rowContext = context
        rowContext.sizes = .explicit(first.sizes)
        let prepared = try sweep.target(of: first).prepare(rowContext)
        template = plan
        template.spec = prepared.spec
        template.spec.name = plan.spec.name
        template.target = prepared.target
        template.pools = [.server]
        self.context = context
        searching = ChainSearch.searches(sweep.space) && sweep.space.cellCount > 15
    }

    /// Runs the chain and reads its result: every row's trials, the first row's W/C, the
    /// recommended cell and the summary.
    func run(observer: (any SweepObserver)?) throws(PoolSizeError) -> SweepResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try sweep.run(
            template: template, context: context, directory: directory, mode: .create, commandLine: [],
            searching: searching, observer: observer)
        var records: [TrialRecord] = []
        var lowLoad: LowLoadEstimate?
        for row in sweep.rows {
            guard let recorded = try? RunDirectory(ChainSweep.rowDirectory(directory, row)).load() else { continue }
            records += recorded.records
            lowLoad = lowLoad ?? recorded.lowLoad
        }
        guard let lowLoad else {
            throw .measurementFailed("no row of the chain measured W/C at low load, so no cell was measured")
        }
        var result = SweepResult(plan: template, lowLoad: lowLoad, records: records, recommendation: nil)
        result.recommendedSizes = outcome.answer.map { answer in
            Dictionary(uniqueKeysWithValues: answer.recommended.cell.names.map { ($0, answer.recommended.cell[$0]) })
        }
        result.chainSummary = outcome.summary
        return result
    }
}
