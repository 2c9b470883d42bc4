import PoolSizeModel

extension Sweep.Target {
    /// What a sweep sizes: a case a kind of target, each with the settings only it has. A target
    /// with a new knob is a new case here and its own `prepare`, not a change to the others.
    package enum Kind: Sendable, Equatable, Codable {
        /// A built-in workload's name or a YAML spec file's path, on poolsize's own pools.
        case workload(String)
        /// A recorded trace's CSV file, replayed on poolsize's own pools.
        case trace(String)
        /// A command run as each task on poolsize's own pools.
        case command(CommandTask)
        /// An HTTP request sent as each task from poolsize's own pools.
        case http(RequestTask)
        /// The pool inside a server started at each size.
        case server(ServerTask)
        /// A load tool's own concurrency.
        case loadTool(LoadToolTask)
        /// A connection pool against PostgreSQL.
        case postgres(PostgresTask)

        private enum CodingKeys: String, CodingKey {
            case workload, trace, command, http, server, loadTool, postgres
        }

        /// One key, the case's, holding its settings: `{"server": {"command": …}}`.
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard let key = c.allKeys.first, c.allKeys.count == 1 else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: c.codingPath, debugDescription: "a target names one kind: server, postgres, …"))
            }
            switch key {
            case .workload: self = .workload(try c.decode(String.self, forKey: key))
            case .trace: self = .trace(try c.decode(String.self, forKey: key))
            case .command: self = .command(try c.decode(CommandTask.self, forKey: key))
            case .http: self = .http(try c.decode(RequestTask.self, forKey: key))
            case .server: self = .server(try c.decode(ServerTask.self, forKey: key))
            case .loadTool: self = .loadTool(try c.decode(LoadToolTask.self, forKey: key))
            case .postgres: self = .postgres(try c.decode(PostgresTask.self, forKey: key))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case let .workload(name): try c.encode(name, forKey: .workload)
            case let .trace(path): try c.encode(path, forKey: .trace)
            case let .command(task): try c.encode(task, forKey: .command)
            case let .http(task): try c.encode(task, forKey: .http)
            case let .server(task): try c.encode(task, forKey: .server)
            case let .loadTool(task): try c.encode(task, forKey: .loadTool)
            case let .postgres(task): try c.encode(task, forKey: .postgres)
            }
        }
    }
}
