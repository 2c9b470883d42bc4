import Foundation
import PoolSizeModel
import PoolSizeOutput

/// What a chain's directory records of how it was asked (chain.json): the knobs as written, the
/// server with the database behind it (every credential masked, `withheld` when one was), how a
/// cell's connections are counted, whether the space was searched, and the chain's run id. With
/// its rows' plans (machine.json) it rebuilds the chain, so `--resume DIR` needs no flags.
package struct ChainRecord: Codable, Equatable, Sendable {
    /// The file's name in the chain's directory.
    package static let fileName = "chain.json"

    /// Each knob as `--sizes` wrote it: `workers=1,2,3`, `pool=threads`.
    package var knobs: [String]
    /// The server (its `database` the chain's), credentials masked.
    package var target: TargetRecord
    /// Which knobs multiply to a cell's connections (`workers*pool+2`).
    package var databaseConnections: String?
    /// Whether the space was searched rather than measured whole.
    package var searching: Bool
    /// The chain's run id; each row's is it and the row's name.
    package var runID: String

    /// `runID` as the snake-case decoder spells it back (`run_id` → `runId`).
    enum CodingKeys: String, CodingKey {
        case knobs, target, databaseConnections, searching
        case runID = "runId"
    }

    /// The record of `chain` run with `searching` under `runID`.
    package init(_ chain: ChainSweep, searching: Bool, runID: String) {
        knobs = chain.space.knobs.map(\.written)
        var target = chain.target
        if case .server(var task) = target.kind {
            task.database = chain.database
            target.kind = .server(task)
        }
        self.target = TargetRecord(target)
        databaseConnections = chain.connections
        self.searching = searching
        self.runID = runID
    }

    /// The chain `directory` records, nil when it records none (not a chain's, or written
    /// before chain.json).
    package static func load(_ directory: URL) throws(PoolSizeError) -> ChainRecord? {
        let file = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return try RunDirectoryJSON.decode(
            ChainRecord.self, from: String(decoding: data, as: UTF8.self), path: file.path)
    }

    /// The chain rebuilt from the record: its knobs, server and database.
    package func chain() throws(PoolSizeError) -> ChainSweep {
        guard let space = try KnobSpace.parse(knobs) else {
            throw .invalidInput(
                path: ChainRecord.fileName, message: "records no knobs; expected the schema in results/README.md")
        }
        var server = target.target
        var database: String?
        if case .server(var task) = server.kind {
            database = task.database
            task.database = nil
            server.kind = .server(task)
        }
        return try ChainSweep(
            space: space, target: server, database: database, connections: databaseConnections)
    }
}
