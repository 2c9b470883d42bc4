/// How one SQL command ended on the server.
package enum PostgresOutcome: Equatable, Sendable {
    /// It ran (a command, or a query whose rows were read and dropped).
    case ok
    /// The server refused it or failed it: the SQLSTATE (`40001`, `40P01`, `42601`), and its
    /// primary message; `sqlState` is empty when the connection itself failed.
    case failed(sqlState: String, message: String)
}
