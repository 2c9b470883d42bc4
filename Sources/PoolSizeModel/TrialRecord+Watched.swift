extension TrialRecord {
    /// What the trial's workload source watched outside the pool during the window: nothing for
    /// most sources; the database behind a `--postgres` sweep's connections (`DatabaseFigures`);
    /// a server sweep's server processes (`ServerFigures`).
    /// A new kind of watched thing is a new case, with its own columns and text.
    package enum Watched: Equatable, Sendable {
        /// The source watched nothing outside the pool.
        case nothing
        /// The database behind the connections, with what the trial saw of it.
        case database(DatabaseFigures)
        /// The processes of the server a server sweep started, with what the trial saw of them.
        case server(ServerFigures)

        /// The database's figures, a server's database's included; nil when the trial watched
        /// no database.
        package var database: DatabaseFigures? {
            switch self {
            case .nothing: return nil
            case let .server(figures): return figures.database
            case let .database(figures): return figures
            }
        }

        /// The server's figures; nil when the source watched no server's processes.
        package var server: ServerFigures? {
            if case let .server(figures) = self { return figures }
            return nil
        }

        /// Changes the database's figures in place, a server's database's included; nothing
        /// when the trial watched no database.
        package mutating func updateDatabase<E: Error>(_ change: (inout DatabaseFigures) throws(E) -> Void) throws(E) {
            switch self {
            case .nothing: return
            case var .database(figures):
                try change(&figures)
                self = .database(figures)
            case var .server(server):
                guard var figures = server.database else { return }
                try change(&figures)
                server.database = figures
                self = .server(server)
            }
        }

        /// These figures with `figures` as the database's: beside a server's, or alone.
        package func withDatabase(_ figures: DatabaseFigures) -> Watched {
            guard case var .server(server) = self else { return .database(figures) }
            server.database = figures
            return .server(server)
        }
    }
}
