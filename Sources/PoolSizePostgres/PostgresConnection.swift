import CPostgres
import Foundation
import PoolSizeKit
import PoolSizeModel

/// One connection to PostgreSQL through libpq, used by one thread at a time: its commands are
/// blocking calls (PQexec) on the calling thread, as a JDBC or psycopg connection's are, so the
/// thread's CPU clock holds the client's work and the rest of the wall time is the server's and
/// the network's (W). Rows are read and dropped.
package final class PostgresConnection: PooledConnection, @unchecked Sendable {
    // @unchecked: the free list (`ConnectionFreeList`) hands a connection to one thread at a time.
    private(set) var connection: OpaquePointer?
    /// The server process serving this connection (its backend), for /proc.
    package let backendPID: Int32
    /// The connection's number in its pool, from 0: pgbench's `:client_id`.
    package let clientID: Int
    /// The statement timeout set on the connection, seconds; nil for the server's own.
    package let statementTimeoutSeconds: Double?
    /// What the script's transactions reuse on this connection (values, the SQL being built).
    package var transaction = PgProgram.State()

    /// Connects with `conninfo` (a `postgresql://` URL or `key=value` pairs; libpq reads
    /// `PGPASSWORD`, `.pgpass` and the other `PG*` variables as it documents). Throws naming
    /// `--postgres` with libpq's reason and the fix; the password is in no message. With
    /// `statementTimeoutSeconds` the connection sets the server's statement_timeout, so the
    /// server cancels a statement running longer (SQLSTATE 57014).
    /// - Parameter parameter: the setting a failure names (a chain's database is not the pool's).
    package init(
        _ conninfo: String, clientID: Int = 0, statementTimeoutSeconds: Double? = nil,
        parameter: PoolSizeError.Parameter = .postgres
    ) throws(PoolSizeError) {
        guard let connection = PQconnectdb(conninfo) else {
            throw .invalidParameter(parameter, message: "libpq could not allocate a connection (out of memory?)")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            // libpq quotes what it cannot parse of a connection string, the password too.
            let reason = Secrets.scrub(Self.oneLine(PQerrorMessage(connection)), conninfo: conninfo)
            PQfinish(connection)
            throw .invalidParameter(parameter, message: Self.advice(for: reason))
        }
        if let seconds = statementTimeoutSeconds {
            // In whole milliseconds, the setting's unit; at least 1 (0 would turn it off).
            let milliseconds = max(1, Int((seconds * 1_000).rounded()))
            let result = PQexec(connection, "SET statement_timeout = \(milliseconds)")
            let outcome = Self.outcome(result, connection)
            PQclear(result)
            if case let .failed(_, message) = outcome {
                PQfinish(connection)
                throw .invalidParameter(.taskTimeout, message: "the server refuses it as statement_timeout: \(message)")
            }
        }
        self.connection = connection
        self.clientID = clientID
        self.statementTimeoutSeconds = statementTimeoutSeconds
        backendPID = PQbackendPID(connection)
    }

    deinit { close() }

    /// Closes the connection (its backend ends); later commands fail. Idempotent.
    package func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// Whether the server is on this machine (a Unix socket or a loopback address), so that
    /// /proc sees its backends.
    package var serverIsLocal: Bool {
        let address = value("SELECT coalesce(inet_server_addr()::text, 'local')") ?? ""
        return address == "local" || address.hasPrefix("127.") || address == "::1"
    }

    /// Whether the connection is still usable (not closed, not broken).
    package var isUsable: Bool { connection.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Runs `sql` and waits for its end; a failure inside a transaction block rolls it back,
    /// so the connection's next task starts clean.
    package func execute(_ sql: String) -> PostgresOutcome { sql.withCString { execute($0) } }

    /// Runs the NUL-terminated `sql` as `execute(_:)` does, without making a Swift string.
    package func execute(_ sql: UnsafePointer<CChar>) -> PostgresOutcome {
        guard let connection else { return .failed(sqlState: "", message: "the connection is closed") }
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let outcome = Self.outcome(result, connection)
        if case .failed = outcome, PQtransactionStatus(connection) == PQTRANS_INERROR {
            PQclear(PQexec(connection, "ROLLBACK"))
        }
        return timedOut(outcome)
    }

    /// A statement the server cancelled for its statement_timeout, said as the setting that
    /// set it; any other outcome as it is.
    func timedOut(_ outcome: PostgresOutcome) -> PostgresOutcome {
        guard case let .failed(state, message) = outcome, state == Self.queryCanceled,
            message.contains("statement timeout"), let statementTimeoutSeconds
        else { return outcome }
        return .failed(
            sqlState: state,
            message:
                "\(message): it ran past \(PoolSizeError.Parameter.taskTimeout.mention) \(UnitFormat.duration(statementTimeoutSeconds))"
        )
    }

    /// SQLSTATE query_canceled: a statement timeout, or a cancel request.
    static let queryCanceled = "57014"

    /// Asks the server to parse and plan `sql` without running it (an unnamed prepared
    /// statement): a syntax error or an unknown table is found before any trial.
    package func check(_ sql: String) -> PostgresOutcome {
        guard let connection else { return .failed(sqlState: "", message: "the connection is closed") }
        let result = PQprepare(connection, "", sql, 0, nil)
        defer { PQclear(result) }
        return Self.outcome(result, connection)
    }

    /// The first column of the first row of `sql`'s result as text; nil when it failed or
    /// returned no row.
    package func value(_ sql: String) -> String? {
        guard let connection, let result = PQexec(connection, sql) else { return nil }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0,
            let text = PQgetvalue(result, 0, 0)
        else { return nil }
        return String(cString: text)
    }

    /// Every row of `sql`'s result, each column as text (NULL as empty); nil when it failed.
    package func rows(_ sql: String) -> [[String]]? {
        guard let connection, let result = PQexec(connection, sql) else { return nil }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { return nil }
        let columns = PQnfields(result)
        return (0..<PQntuples(result)).map { row in
            (0..<columns).map { column in PQgetvalue(result, row, column).map { String(cString: $0) } ?? "" }
        }
    }

    static func outcome(_ result: OpaquePointer?, _ connection: OpaquePointer) -> PostgresOutcome {
        guard let result else { return .failed(sqlState: "", message: oneLine(PQerrorMessage(connection))) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return .ok
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            return .failed(sqlState: state, message: primary ?? oneLine(PQresultErrorMessage(result)))
        }
    }

    /// libpq's message on one line, escaped for a terminal.
    static func oneLine(_ message: UnsafePointer<CChar>?) -> String {
        let text = message.map { String(cString: $0) } ?? "no message"
        let joined = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        return TerminalText.escape(joined)
    }

    /// libpq's reason for a failed connection with what to do about it.
    static func advice(for reason: String) -> String {
        let lower = reason.lowercased()
        let fix: String
        if lower.contains("password authentication failed") || lower.contains("no password supplied") {
            fix = "check the user and password (in the URL, PGPASSWORD or ~/.pgpass)"
        } else if lower.contains("does not exist") && lower.contains("database") {
            fix = "create the database (createdb NAME) or name one that exists"
        } else if lower.contains("connection refused") || lower.contains("no such file")
            || lower.contains("could not connect") || lower.contains("could not translate")
        {
            fix = "start the server, or correct the host and port"
        } else if lower.contains("too many") {
            fix = "the server is at max_connections; close other clients or raise it"
        } else {
            fix = "correct the connection URL"
        }
        return "cannot connect: \(reason); \(fix)"
    }
}
