import ArgumentParser
import Foundation
import PoolSize
import PoolSizeModel
import PoolSizePostgres

/// `--postgres`: the pool sized is a connection pool, each of its threads holding one
/// connection to the user's PostgreSQL and running the `--sql`/`--sql-file` transaction (a
/// pgbench script) as blocking calls. `resolve` checks these flags against the others, reads the
/// script, connects once to check it, and builds the workload.
struct SweepPostgresOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.postgres, valueName: "URL"))
    var postgres: String?

    @Option(help: ArgumentHelp(Help.sql, valueName: "SCRIPT"))
    var sql: String?

    @Option(name: .customLong("sql-file"), help: ArgumentHelp(Help.sqlFile, valueName: "FILE"), completion: .file())
    var sqlFile: String?

    @Option(name: .customLong("define"), help: ArgumentHelp(Help.define, valueName: "NAME=VALUE"))
    var defines: [String] = []

    /// The workload these flags ask for, or nil without `--postgres`; `workload`'s task flags
    /// must be left as they are, and the explicit `sizes` within the server's connections.
    /// `resumed` is the plan of the run `--resume` continues, whose connection limit a sweep of
    /// the same server keeps. `sizesFlag` is the flag the sizes came from.
    func resolve(
        workload: SweepWorkloadOptions, sizes: String?, sizesFlag: String = "--sizes", trialMilliseconds: Int?,
        cores: Int, resumed: SweepPlan? = nil
    ) throws(PoolSizeError) -> SweepWorkload? {
        guard let postgres else {
            for (flag, given) in [
                ("--sql", sql != nil), ("--sql-file", sqlFile != nil), ("--define", !defines.isEmpty),
            ]
            where given {
                throw .invalidOption(
                    flag: flag, message: "is the transaction of a --postgres sweep; add --postgres URL or drop \(flag)")
            }
            return nil
        }
        for (flag, given) in [
            ("--exec", workload.exec != nil), ("--http", workload.http != nil),
            ("--workload", workload.workload != nil),
            ("--trace", workload.trace != nil),
        ] where given {
            throw .invalidOption(
                flag: flag,
                message: "names another task; a --postgres sweep's task is its --sql transaction, drop \(flag)")
        }
        let (text, parameter, origin) = try scriptText()
        var variables: [String: Int64] = [:]
        for define in defines {
            let parts = define.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty,
                parts[0].allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }),
                let value = Int64(parts[1])
            else {
                throw .invalidOption(
                    flag: "--define",
                    message:
                        "takes NAME=INTEGER (scale=10), got '\(TerminalText.escape(define))'; this subset's variables are integers"
                )
            }
            variables[parts[0]] = value
        }
        let script = try PgScript(text, source: parameter, defined: Set(variables.keys))
        // --task-timeout bounds a task of unknown length, as for --exec and --http: here as the
        // server's statement_timeout on each connection.
        let timeout = try workload.taskTimeoutSeconds()
        let source = try PostgresSource(
            conninfo: postgres, script: script, variables: variables, source: parameter,
            statementTimeoutSeconds: timeout)
        if let sizes, case let .explicit(list) = try SizeSelection.parse(sizes), let largest = list.max(),
            let allowed = source.connectionsAllowed, largest > allowed
        {
            source.sweepEnded()
            throw .invalidOption(
                flag: sizesFlag,
                message:
                    "asks for \(largest) connections; the server allows \(allowed) more (max_connections less those reserved and in use); measure fewer or raise max_connections"
            )
        }
        let shown = TerminalText.escape(Secrets.conninfo(postgres))
        let database = source.database.map { $0.isEmpty ? "db" : $0 } ?? "db"
        let spec = WorkloadSpec(
            name: "postgres-" + String(database.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
            description: "PostgreSQL: \(shown): \(origin)", cpuMicroseconds: 0, waitMicroseconds: 0,
            trialMilliseconds: trialMilliseconds ?? 1000)
        // What the server allows this sweep now, unless the run resumed recorded its own limit
        // for the same server (others' connections come and go; its plan stays the same).
        var limit = [source.connectionLimit, source.connectionsAllowed].compactMap { $0 }.min().map { max(1, $0) }
        var digest: String? = SHA256.hex(text)
        if case let .database(recorded)? = resumed?.target, recorded.connection == shown {
            limit = recorded.connectionLimit
            // A run recorded before the digest was kept continues as it was planned.
            if recorded.scriptSHA256 == nil { digest = nil }
        }
        let setup = DatabaseSetup(
            connection: shown, connectionLimit: limit, serverIsLocal: source.isLocal,
            statementTimeoutSeconds: timeout, scriptSHA256: digest)
        return SweepWorkload(
            spec: spec, run: .external(PostgresTrialMeasurer(source: source, cores: cores)),
            isLoopbackServer: source.isLocal, taskTimeoutSeconds: timeout, target: .database(setup))
    }

    /// The script's text, which flag it came from, and how the plan names it.
    private func scriptText() throws(PoolSizeError) -> (String, PoolSizeError.Parameter, String) {
        switch (sql, sqlFile) {
        case (nil, nil):
            throw .invalidOption(
                flag: "--postgres",
                message: "needs the transaction to run: add --sql 'SELECT …;' or --sql-file FILE (a pgbench script)")
        case (.some, .some):
            throw .invalidOption(flag: "--sql-file", message: "and --sql both give the transaction; keep one")
        case let (.some(text), nil):
            return (text, .sql, "--sql " + TerminalText.excerpt(text, limit: 80))
        case let (nil, .some(path)):
            // Read once: a FIFO or /dev/stdin has nothing left for a second read.
            return (try PgScriptFile.text(atPath: path), .sqlFile, URL(fileURLWithPath: path).lastPathComponent)
        }
    }

    private enum Help {
        static let postgres = """
            Size a connection pool against your PostgreSQL: a libpq connection URL (postgresql://user@host:port/db) \
            or key=value string; libpq's PG* variables, PGPASSWORD and ~/.pgpass apply. Each pool thread holds one \
            connection and runs the --sql transaction as blocking calls, as a JDBC or psycopg pool does.
            """
        static let sql = """
            With --postgres: the transaction each task runs, as a pgbench script: SQL commands ended by ';', \
            \\set NAME EXPR (integers, :variables, + - * / %, random(lo, hi)) and \\sleep N [us|ms|s].
            """
        static let sqlFile = """
            With --postgres: the transaction as a pgbench script file, the same file `pgbench -f FILE` runs \
            (a FIFO or /dev/stdin too, read once).
            """
        static let define = """
            With --postgres: set a script variable for the whole run, as pgbench's -D (scale=10). :scale is \
            otherwise the count of pgbench_branches, as pgbench takes it.
            """
    }
}
