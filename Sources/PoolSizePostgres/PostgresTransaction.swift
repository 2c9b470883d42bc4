import PoolSizeKit
import PoolSizeModel

/// What one transaction needs of a connection: its number (`:client_id`), the state its
/// transactions reuse, and a blocking call that runs one SQL command. `PostgresConnection` is
/// the one the sweep uses; the unit tests run scripts on a fake one, without a server.
package protocol PostgresExecuting: AnyObject {
    /// The connection's number in its pool, from 0: pgbench's `:client_id`.
    var clientID: Int { get }
    /// What the script's transactions reuse on this connection.
    var transaction: PgProgram.State { get set }
    /// Runs the NUL-terminated `sql` and waits for its end.
    func execute(_ sql: UnsafePointer<CChar>) -> PostgresOutcome
}

extension PostgresConnection: PostgresExecuting {}

/// One transaction of a compiled script on one connection, as a `PostgresSource` task runs it.
package enum PostgresTransaction {
    /// Runs `program` once on `connection`: its random values from `random`, its `\sleep`s
    /// through `sleep` (microseconds), each SQL command on the connection. The first command
    /// the server fails ends the transaction: `failed` gets its SQLSTATE (empty when the
    /// connection itself failed) and the task fails with `SQLSTATE <state>: <message>`, or the
    /// message alone without a SQLSTATE. A value the script cannot have (a division by zero)
    /// fails the task with the script's reason.
    package static func run(
        _ program: PgProgram, on connection: some PostgresExecuting, random: (ClosedRange<Int64>) -> Int64,
        sleep: (Int64) -> Void, failed: (String) -> Void
    ) -> TaskOutcome {
        var failure: TaskOutcome?
        let scriptFailure = program.run(
            clientID: Int64(connection.clientID), state: &connection.transaction, random: random, sleep: sleep,
            sql: { text in
                guard case let .failed(state, message) = connection.execute(text) else { return true }
                failed(state)
                failure = TaskOutcome(failure: state.isEmpty ? message : "SQLSTATE \(state): \(message)")
                return false
            })
        if let scriptFailure { return TaskOutcome(failure: scriptFailure.reason) }
        return failure ?? TaskOutcome()
    }
}
