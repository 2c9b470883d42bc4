import Foundation
import PoolSizeModel
import PoolSizePostgres

extension PostgresTask {
    /// Parses the script, connects once to check it on the server, keeps the sizes within the
    /// connections the server allows, and builds the measurer of the connection pool.
    func prepare(_ context: TargetContext, timeoutSeconds: Double) throws(PoolSizeError) -> PreparedTarget {
        for name in variables.keys
        where name.isEmpty || !name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
            throw .invalidParameter(
                .sqlDefines,
                message:
                    "takes NAME=INTEGER (scale=10), got a variable named '\(TerminalText.escape(name))'; a name is letters, digits and _"
            )
        }
        let client = try resolvedClient(context)
        let parsed = try PgScript(script, source: scriptParameter, defined: Set(variables.keys))
        // The task timeout bounds a task of unknown length, as for a command or a request: here
        // as the server's statement_timeout on each connection.
        let source = try PostgresSource(
            conninfo: connection, script: parsed, variables: variables, source: scriptParameter,
            statementTimeoutSeconds: timeoutSeconds)
        if let largest = context.listedSizes.max(), let allowed = source.connectionsAllowed, largest > allowed {
            source.sweepEnded()
            throw .invalidParameter(
                context.sizesParameter,
                message:
                    "asks for \(largest) connections; the server allows \(allowed) more (max_connections less those reserved and in use); measure fewer or raise max_connections"
            )
        }
        let shown = TerminalText.escape(Secrets.conninfo(connection))
        let database = source.database.map { $0.isEmpty ? "db" : $0 } ?? "db"
        let origin =
            scriptFile.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "SQL "
            + TerminalText.excerpt(script, limit: 80)
        let spec = WorkloadSpec(
            name: "postgres-" + String(database.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
            description: "PostgreSQL: \(shown): \(origin)", cpuMicroseconds: 0, waitMicroseconds: 0,
            trialMilliseconds: context.trialMilliseconds ?? 1000)
        // What the server allows this sweep now, unless the run resumed recorded its own limit
        // for the same server (others' connections come and go; its plan stays the same).
        var limit = [source.connectionLimit, source.connectionsAllowed].compactMap { $0 }.min().map { max(1, $0) }
        var digest: String? = SHA256.hex(script)
        if case let .database(recorded)? = context.resumed?.target, recorded.connection == shown {
            limit = recorded.connectionLimit
            // A run recorded before the digest was kept continues as it was planned.
            if recorded.scriptSHA256 == nil { digest = nil }
        }
        var setup = DatabaseSetup(
            connection: shown, connectionLimit: limit, serverIsLocal: source.isLocal,
            statementTimeoutSeconds: timeoutSeconds, scriptSHA256: digest)
        setup.client = client
        return PreparedTarget(
            spec: spec, run: .external(PostgresTrialMeasurer(source: source, cores: context.cores, client: client)),
            isLoopbackServer: source.isLocal, taskTimeoutSeconds: timeoutSeconds, target: .database(setup))
    }

    /// The client asked for, or the load's default; a resumed run keeps the one it recorded
    /// (`threads` for a run recorded before it was a choice), and one asked for beside it must
    /// agree.
    package func resolvedClient(_ context: TargetContext) throws(PoolSizeError) -> PostgresClient {
        let closedLoop = context.load == .closed
        if case let .database(recorded)? = context.resumed?.target {
            let kept = recorded.client ?? .threads
            if let client, client != kept {
                throw .invalidParameter(
                    .postgresClient,
                    message:
                        "is \(client.rawValue), and the run being resumed drove its connections with \(kept.rawValue); drop it or give \(kept.rawValue)"
                )
            }
            return kept
        }
        if client == .async, !closedLoop {
            throw .invalidParameter(
                .postgresClient,
                message:
                    "async keeps every connection busy (a closed loop); an open loop's arrivals wait for a pool's threads: give threads or drop it"
            )
        }
        return client ?? (closedLoop ? .async : .threads)
    }
}
