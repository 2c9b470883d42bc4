import PoolSizeModel
import PoolSizeObserve

extension TrialsColumn {
    /// The server's processes (`TrialRecord.Watched.server`), in file order: the processes that
    /// did work, which make a row a server trial with these figures, then the runtime with an
    /// interpreter lock they run. Each is empty for any other trial, and for a server trial of
    /// a file written before them.
    static let serverColumns: [TrialsColumn] = [
        TrialsColumn(
            "server_processes",
            write: { $0.watched.server.map { String($0.processes) } ?? "" },
            read: { row, r throws(PoolSizeError) in
                guard let cell = row.text("server_processes"), !cell.isEmpty else { return }
                r.watched = .server(ServerFigures(processes: try row.integer("server_processes")))
            }),
        TrialsColumn(
            "server_interpreter_lock",
            write: { CSVField.escape($0.watched.server?.interpreterLock ?? "") },
            read: { row, r throws(PoolSizeError) in
                guard let cell = row.text("server_interpreter_lock"), !cell.isEmpty else { return }
                guard var figures = r.watched.server, KnownProgram(lockName: cell) != nil else {
                    throw row.invalid(
                        "server_interpreter_lock", cell,
                        "a runtime with an interpreter lock (cpython 3.11, ruby 3.2) beside a count in server_processes"
                    )
                }
                figures.interpreterLock = cell
                r.watched = .server(figures)
            }),
    ]
}
