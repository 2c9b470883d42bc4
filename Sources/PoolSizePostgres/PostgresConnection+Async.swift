import CPostgres
import PoolSizeModel

/// The connection driven without blocking (libpq's asynchronous command processing), as
/// `PostgresLane` drives many at once on one thread, the way pgbench's threads do: a command is
/// sent, the thread waits on the sockets of all its connections, and reads each answer as it
/// arrives. `PQexec` and the other blocking calls keep working in this mode (libpq ignores
/// it for them), so a connection can go back to a thread pool between trials.
extension PostgresConnection {
    /// The connection's socket, for poll(2); -1 when closed.
    var socket: Int32 { connection.map { PQsocket($0) } ?? -1 }

    /// Puts the connection in libpq's nonblocking mode (sends never wait on a full socket
    /// buffer); false when libpq refuses.
    func setNonblocking(_ on: Bool) -> Bool {
        guard let connection else { return false }
        return PQsetnonblocking(connection, on ? 1 : 0) == 0
    }

    /// Sends the NUL-terminated `sql` in the simple query protocol, as `execute` runs it; nil
    /// once sent (or queued: `flush` sends the rest), else why it could not be sent.
    func send(_ sql: UnsafePointer<CChar>) -> PostgresOutcome? {
        guard let connection else { return .failed(sqlState: "", message: "the connection is closed") }
        guard PQsendQuery(connection, sql) == 1 else {
            return .failed(sqlState: "", message: Self.oneLine(PQerrorMessage(connection)))
        }
        return nil
    }

    /// Sends what libpq still holds of a command: 0 when all is sent, 1 when the socket must
    /// become writable first, -1 when the connection failed.
    func flush() -> Int32 {
        guard let connection else { return -1 }
        return PQflush(connection)
    }

    /// Reads what the server sent for the command in progress, without waiting: true once its
    /// last result is in, `outcome` then the first failure among its results (or left as it
    /// was, `.ok`); false while the command still runs. A broken connection ends the command
    /// failed with libpq's message and no SQLSTATE.
    func collect(into outcome: inout PostgresOutcome) -> Bool {
        guard let connection else {
            outcome = .failed(sqlState: "", message: "the connection is closed")
            return true
        }
        guard PQconsumeInput(connection) == 1 else {
            outcome = .failed(sqlState: "", message: Self.oneLine(PQerrorMessage(connection)))
            return true
        }
        while PQisBusy(connection) == 0 {
            guard let result = PQgetResult(connection) else { return true }
            let this = Self.outcome(result, connection)
            PQclear(result)
            if outcome == .ok, case .failed = this { outcome = this }
        }
        return false
    }

    /// Whether the connection is inside a transaction block that failed (only ROLLBACK is
    /// accepted there), or inside one at all, between commands.
    var transactionState: (inBlock: Bool, failed: Bool) {
        guard let connection else { return (false, false) }
        let status = PQtransactionStatus(connection)
        return (status == PQTRANS_INTRANS || status == PQTRANS_INERROR, status == PQTRANS_INERROR)
    }
}
