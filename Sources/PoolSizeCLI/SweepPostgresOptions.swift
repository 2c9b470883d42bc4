import ArgumentParser
import Foundation
import PoolSize
import PoolSizeModel

/// `--postgres`: the pool sized is a connection pool of N connections to the user's PostgreSQL,
/// each running the `--sql`/`--sql-file` transaction (a pgbench script), driven as `--client`
/// says. `target` checks these flags against the others and reads
/// the script; the library connects once to check it and builds the measurer.
struct SweepPostgresOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.postgres, valueName: "URL"))
    var postgres: String?

    @Option(help: ArgumentHelp(Help.sql, valueName: "SCRIPT"))
    var sql: String?

    @Option(name: .customLong("sql-file"), help: ArgumentHelp(Help.sqlFile, valueName: "FILE"), completion: .file())
    var sqlFile: String?

    @Option(name: .customLong("define"), help: ArgumentHelp(Help.define, valueName: "NAME=VALUE"))
    var defines: [String] = []

    @Option(help: ArgumentHelp(Help.client, valueName: "async|threads"))
    var client: String?

    /// The target these flags ask for, or nil without `--postgres`; `workload`'s task flags
    /// must be left as they are. The script is read here, once (a FIFO has nothing left for a
    /// second read); the library parses it and checks it on the server (`PostgresTask.prepare`).
    /// poolsize's own pool flags (`--pool`, `--qos`…) choose the pool of `--client threads`, and
    /// are refused without it.
    func target(workload: SweepWorkloadOptions, axes: SweepAxisOptions) throws(PoolSizeError) -> Sweep.Target? {
        guard let postgres else {
            for (flag, given) in [
                ("--sql", sql != nil), ("--sql-file", sqlFile != nil), ("--define", !defines.isEmpty),
                ("--client", client != nil),
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
        var task = try scriptTask(connection: postgres)
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
            task.variables[parts[0]] = value
        }
        if let client {
            guard let chosen = PostgresClient(rawValue: client) else {
                throw .invalidOption(
                    flag: "--client",
                    message:
                        "takes async (a thread per core drives the connections without blocking, as pgbench) or threads (a thread per connection), got '\(TerminalText.escape(client))'"
                )
            }
            task.client = chosen
        }
        if task.client != .threads {
            for (flag, given) in axes.ownPoolFlags where given {
                throw .invalidOption(
                    flag: flag,
                    message:
                        "sets the pool of --client threads (a pool thread per connection): add --client threads or drop \(flag)"
                )
            }
        }
        // --task-timeout bounds a task of unknown length, as for --exec and --http: here as the
        // server's statement_timeout on each connection.
        var target = Sweep.Target(.postgres(task))
        target.taskTimeoutSeconds = try workload.taskTimeoutSeconds()
        return target
    }

    /// The script's text and the file it came from.
    private func scriptTask(connection: String) throws(PoolSizeError) -> PostgresTask {
        switch (sql, sqlFile) {
        case (nil, nil):
            throw .invalidOption(
                flag: "--postgres",
                message: "needs the transaction to run: add --sql 'SELECT …;' or --sql-file FILE (a pgbench script)")
        case (.some, .some):
            throw .invalidOption(flag: "--sql-file", message: "and --sql both give the transaction; keep one")
        case let (.some(text), nil):
            return PostgresTask(connection: connection, script: text)
        case let (nil, .some(path)):
            // Read once: a FIFO or /dev/stdin has nothing left for a second read.
            return PostgresTask(connection: connection, script: try PgScriptFile.text(atPath: path), scriptFile: path)
        }
    }

    private enum Help {
        static let postgres = """
            Size a connection pool against your PostgreSQL: a libpq connection URL (postgresql://user@host:port/db) \
            or key=value string; libpq's PG* variables, PGPASSWORD and ~/.pgpass apply. A size of N is N \
            connections, each running the --sql transaction one after another (see --client).
            """
        static let client = """
            With --postgres: how the N connections are driven. async (the closed loop's default): a thread per \
            core sends each command without blocking and waits on all its connections, as pgbench does, so the \
            client's threads do not take the cores the database needs. threads (an open loop's): each pool \
            thread holds one connection and blocks on it, so the pool's own threads are measured too.
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
