import PoolSizeModel
import PoolSizeObserve

extension TrialsColumn {
    /// The server's processes (`TrialRecord.Watched.server`), in file order: the processes that
    /// did work, which make a row a server trial with these figures, then the runtime with an
    /// interpreter lock they run, and whether the driver opened a connection for each request. Each
    /// is empty for any other trial, and for a server trial of
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
        TrialsColumn(
            "server_connection_per_request",
            write: { $0.watched.server?.connectionPerRequest.map { $0 ? "1" : "0" } ?? "" },
            read: { row, r throws(PoolSizeError) in
                guard let cell = row.text("server_connection_per_request"), !cell.isEmpty else { return }
                guard var figures = r.watched.server, cell == "0" || cell == "1" else {
                    throw row.invalid(
                        "server_connection_per_request", cell,
                        "1 (a new connection for each request) or 0 (kept alive) beside a count in server_processes")
                }
                figures.connectionPerRequest = cell == "1"
                r.watched = .server(figures)
            }),
    ]
}
