import Foundation
import PoolSizeKit
import PoolSizeModel

/// A PostgreSQL transaction as the task (`--postgres`, `--sql`/`--sql-file`): each task takes a
/// connection (`ConnectionFreeList`: at most one per pool thread in use at once, as a
/// connection pool of N holds N), runs the script's commands on it as blocking libpq calls on
/// the pool's own thread, and gives it back. The thread's CPU clock holds the client's work (C);
/// the server's work, the network and the script's `\sleep`s are W. A command the server fails
/// fails the task with its SQLSTATE: a serialization failure or a deadlock is a failure, never
/// throughput.
package final class PostgresSource: WorkloadSource, Sendable {
    /// The transaction.
    package let script: PgScript
    /// The transaction compiled with `variables`, as each task runs it.
    let program: PgProgram
    /// Variables set for the whole run: `--define`s and the detected `scale`.
    package let variables: [String: Int64]
    let connections: ConnectionFreeList<PostgresConnection>
    /// How the connections are made (a URL or key=value pairs; may hold a password).
    let conninfo: String
    /// The database connected to.
    package let database: String?
    /// How many connections the server lets this sweep open at once; nil when it would not say.
    package let connectionsAllowed: Int?
    /// How many connections the server lets an ordinary client hold (max_connections less
    /// those reserved for superusers), whoever else is connected; nil when it would not say.
    package let connectionLimit: Int?
    /// Whether the server runs on this machine (a Unix socket or a loopback address): its CPU
    /// is then the load under test, not another program's.
    package let isLocal: Bool
    /// What each trial's window sees of the database (`PostgresSource+Window`).
    let watch: PostgresWindowWatch

    /// A source running `script` on connections made with `conninfo`. Connects once to check
    /// the server: each SQL command is parsed and planned there (`check`), so a syntax error or
    /// an unknown table is said before any trial, with the server's message. Each connection
    /// sets `statementTimeoutSeconds` as the server's statement_timeout.
    package init(
        conninfo: String, script: PgScript, variables: [String: Int64], source: PoolSizeError.Parameter,
        statementTimeoutSeconds: Double? = nil
    ) throws(PoolSizeError) {
        let pool = ConnectionFreeList { (ordinal: Int) throws(PoolSizeError) in
            try PostgresConnection(conninfo, clientID: ordinal, statementTimeoutSeconds: statementTimeoutSeconds)
        }
        self.conninfo = conninfo
        guard let probe = try pool.take() else { throw .measurementFailed("the connections are closed") }
        defer { pool.giveBack(probe) }
        connections = pool
        // The sampler's own connection, opened before the server's limit is read so the limit
        // leaves room for it; without it (the server full) the trials record no wait samples.
        let monitor = try? PostgresConnection(conninfo, clientID: -1)
        var values = variables
        values["client_id"] = values["client_id"] ?? 0
        if values["scale"] == nil, script.reads.contains("scale") {
            // pgbench's own rule for its tables: the scale is the branches' count.
            values["scale"] = probe.value("SELECT count(*) FROM pgbench_branches").flatMap { Int64($0) }
            guard values["scale"] != nil else {
                throw .invalidParameter(
                    source,
                    message:
                        "reads :scale, and the database has no pgbench_branches to count it from; set it with \(PoolSizeError.Parameter.sqlDefines.mention) scale=N"
                )
            }
        }
        self.variables = values
        self.script = script
        program = PgProgram(script, variables: values)
        database = probe.value("SELECT current_database()")
        // What the server lets an ordinary client hold (max_connections less the superusers'
        // reserve), and of that what this sweep may open now: less those open (the probe among
        // them, which the sweep's first task reuses).
        let limit = probe.value("SHOW max_connections").flatMap(Int.init)
        let reserved = probe.value("SHOW superuser_reserved_connections").flatMap(Int.init)
        if let limit, let reserved {
            connectionLimit = max(1, limit - reserved)
            let open = probe.value("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")
                .flatMap(Int.init)
            connectionsAllowed = open.map { max(0, limit - reserved - $0 + 1) }
        } else {
            connectionLimit = nil
            connectionsAllowed = nil
        }
        isLocal = probe.serverIsLocal
        watch = PostgresWindowWatch(connections: pool, monitor: monitor, readsBackendCPU: isLocal)
        // Each command checked with the variables the first transaction would give it.
        var generator = SeededGenerator(seed: 1)
        guard
            case let .success(steps) = script.transaction(
                variables: values,
                random: { range in
                    Int64.random(in: range, using: &generator)
                })
        else { return }
        for case let .sql(text) in steps where !Self.isTransactionControl(text) {
            if case let .failed(state, message) = probe.check(text) {
                throw .invalidParameter(
                    source,
                    message:
                        "the server refuses \(TerminalText.excerpt(text)): \(message)\(state.isEmpty ? "" : " (SQLSTATE \(state))"); fix the statement"
                )
            }
        }
    }

    /// BEGIN, COMMIT, END, ROLLBACK: not checked by preparing (they change the probe's state).
    static func isTransactionControl(_ sql: String) -> Bool {
        let word = sql.split(whereSeparator: { $0.isWhitespace || $0 == ";" }).first?.uppercased() ?? ""
        return ["BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT"].contains(word)
    }

    deinit {
        connections.close()
        watch.close()
    }

    /// Unknown: the transaction's W and C are measured.
    package var declaredTaskNanoseconds: UInt64? { nil }
    /// A transaction cannot enter the sweep's critical sections.
    package var supportsCriticalSections: Bool { false }

    /// Runs the transaction once per task, its random values drawn from `seed` and the task's
    /// index, so that a trial's draws are reproducible.
    package func workload(seed: UInt64, criticalSection: (any CriticalSection)?) -> any Workload {
        PostgresWorkload(source: self, seed: seed)
    }

    /// The connections close when the sweep ends.
    package func sweepEnded() {
        connections.close()
        watch.close()
    }

    /// The connections open now (free or in use).
    package var openConnections: Int { connections.count }

    /// Closes free connections beyond `size`, so a trial of a pool of `size` meets the server
    /// with that many of the sweep's backends, as the user's pool of that size would.
    package func keepConnections(atMost size: Int) { connections.closeFree(beyond: size) }

    /// Connections found broken so far (their backend ended), the free ones broken now
    /// dropped.
    package func lostConnections() -> Int { connections.lostSoFar() }

    /// Why the server cannot be reached now (libpq's reason and the fix), or nil when a new
    /// connection is made; that connection is closed at once.
    package func unreachable() -> String? {
        do {
            let connection = try PostgresConnection(conninfo)
            connection.close()
            return nil
        } catch {
            if case let .invalidParameter(_, message) = error { return message }
            return error.description
        }
    }

    /// `count` connections of the free list for one trial, opened as needed; those taken are
    /// given back when one cannot be had.
    func takeConnections(_ count: Int) throws(PoolSizeError) -> [PostgresConnection] {
        var taken: [PostgresConnection] = []
        while taken.count < count {
            let connection: PostgresConnection?
            do { connection = try connections.take() } catch {
                giveBack(taken)
                throw error
            }
            guard let connection else {
                giveBack(taken)
                throw .measurementFailed("the connections are closed")
            }
            taken.append(connection)
        }
        return taken
    }

    /// Connections `takeConnections` gave.
    func giveBack(_ taken: [PostgresConnection]) {
        for connection in taken { connections.giveBack(connection) }
    }

    /// One transaction on a connection of the free list, blocking the calling thread.
    func perform(task index: UInt64, seed: UInt64) -> TaskOutcome {
        let taken: PostgresConnection?
        do { taken = try connections.take() } catch {
            return TaskOutcome(failure: "no connection: \(error.description)")
        }
        guard let connection = taken else { return TaskOutcome(failure: "the connections are closed") }
        defer { connections.giveBack(connection) }
        var generator = SeededGenerator(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        return PostgresTransaction.run(
            program, on: connection, random: { Int64.random(in: $0, using: &generator) },
            sleep: { microseconds in if microseconds > 0 { usleep(useconds_t(clamping: microseconds)) } },
            failed: { watch.failed(sqlState: $0) })
    }
}
