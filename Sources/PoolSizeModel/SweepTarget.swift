/// What a sweep sizes: pools poolsize builds in its own process (the plan's pool kinds), the
/// pool inside a server it starts at each size (`sweep --server`), the concurrency of the
/// user's own load tool run alone (`sweep --load` without a server), or a pool of poolsize's
/// own whose threads each hold a connection to a database (`sweep --postgres`). Each is a case, so the trial
/// loop, the plan's record and the report follow from it, and the plan records it whole.
package enum SweepTarget: Sendable, Equatable {
    /// Pools built in poolsize's own process, running its tasks.
    case inProcess
    /// A server started with each trial's size and loaded over HTTP.
    case server(ServerSetup)
    /// The user's load tool run once per trial with the trial's size as its own concurrency
    /// (`pgbench -c {size}`): the pool sized is the connections or clients it holds, and no
    /// process poolsize starts or measures serves them.
    case loadTool(LoadToolSetup)
    /// Pools in poolsize's own process whose threads each hold one connection to a database
    /// server: a connection pool, bounded by the connections the server allows.
    case database(DatabaseSetup)

    /// The server's setup, nil for pools in poolsize's own process.
    package var server: ServerSetup? {
        if case let .server(setup) = self { return setup }
        return nil
    }

    /// Whether the sweep can measure W/C at low load before its trials: its own pools' tasks
    /// and a server's processes give C and W per task; a load tool alone prints no CPU split,
    /// so it has no low-load phase and no formula.
    package var measuresLowLoad: Bool {
        switch self {
        case .inProcess, .server, .database: return true
        case .loadTool: return false
        }
    }

    /// The relative standard error of W/C at which the low-load phase stops: 1%, or 2% for a
    /// server. A server's search resolves the knee to an eighth of its size, and at 2% the
    /// formula's N is known to about ±4% (95%), well within that step, in a quarter of the
    /// requests 1% takes (seconds of a sweep that takes tens).
    package var lowLoadRelativeError: Double {
        if case .server = self { return 0.02 }
        return 0.01
    }

    /// The rules of thumb measured beside the recommendation, by the pool sized: a server's
    /// threads, or a database's connections; nil for poolsize's own pools and a load tool's
    /// concurrency, which no rule of thumb sizes. Every stage that measures or says the rules
    /// asks this and never names a target.
    package func ruleSet(cores: Int) -> RuleSet? {
        switch self {
        case .inProcess, .loadTool: return nil
        case let .server(setup): return setup.chainRow == nil ? .threadPool(cores: cores) : nil
        case let .database(setup):
            return .connectionPool(
                cores: cores, serverIsLocal: setup.serverIsLocal, connectionLimit: setup.connectionLimit)
        }
    }

    /// The largest size the target lets a trial have: a database's connection limit; nil when
    /// only the sweep's own maximum bounds the sizes.
    package var sizeLimit: Int? {
        if case let .database(setup) = self { return setup.connectionLimit }
        return nil
    }

    /// The target as messages show it (a plan differing from a run's).
    package var summary: String {
        switch self {
        case .inProcess: return "none (pools in poolsize's own process)"
        case let .server(setup):
            var text =
                "'\(setup.command)' at \(setup.url) with \(setup.connections) connection(s), ready within \(UnitFormat.duration(setup.readyTimeoutSeconds))"
            if case let .resize(command, settle) = setup.sizing {
                text += ", resized by '\(command)' with \(UnitFormat.duration(settle)) to settle"
            }
            if let tool = setup.loadTool { text += ", loaded by '\(tool)'" }
            if let signal = setup.stopSignal { text += ", stopped with SIG\(signal)" }
            return text
        case let .loadTool(setup):
            return "'\(setup.command)' alone, read as \(setup.parse.map { "'\($0)'" }.joined(separator: ", "))"
        case let .database(setup): return setup.summary
        }
    }
}

extension SweepTarget: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, server, loadTool, database
    }

    private enum Kind: String, Codable {
        case inProcess = "in-process"
        case server
        case loadTool = "load-tool"
        case database
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(Kind.self, forKey: .kind) {
        case .inProcess: self = .inProcess
        case .server: self = .server(try c.decode(ServerSetup.self, forKey: .server))
        case .loadTool: self = .loadTool(try c.decode(LoadToolSetup.self, forKey: .loadTool))
        case .database: self = .database(try c.decode(DatabaseSetup.self, forKey: .database))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inProcess: try c.encode(Kind.inProcess, forKey: .kind)
        case let .server(setup):
            try c.encode(Kind.server, forKey: .kind)
            try c.encode(setup, forKey: .server)
        case let .loadTool(setup):
            try c.encode(Kind.loadTool, forKey: .kind)
            try c.encode(setup, forKey: .loadTool)
        case let .database(setup):
            try c.encode(Kind.database, forKey: .kind)
            try c.encode(setup, forKey: .database)
        }
    }
}
