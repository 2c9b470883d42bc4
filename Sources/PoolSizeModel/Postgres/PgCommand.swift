/// One command of a pgbench script, with the line it starts on (1-based) for messages.
package enum PgCommand: Equatable, Sendable {
    /// `\set name expression`.
    case set(name: String, PgExpression, line: Int)
    /// `\sleep amount [us|ms|s]`: the connection is held, idle, that long (W).
    case sleep(PgExpression, microsecondsPerUnit: Int64, line: Int)
    /// A SQL command, without its terminating semicolon, its `:variables` not yet substituted.
    case sql(String, line: Int)
}
