import ArgumentParser
import Foundation
import PoolSize
import PoolSizeModel

/// `--postgres`: the pool sized is a connection pool, each of its threads holding one
/// connection to the user's PostgreSQL and running the `--sql`/`--sql-file` transaction (a
/// pgbench script) as blocking calls. `target` checks these flags against the others and reads
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

    /// The target these flags ask for, or nil without `--postgres`; `workload`'s task flags
    /// must be left as they are. The script is read here, once (a FIFO has nothing left for a
    /// second read); the library parses it and checks it on the server (`PostgresTask.prepare`).
    func target(workload: SweepWorkloadOptions) throws(PoolSizeError) -> Sweep.Target? {
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
