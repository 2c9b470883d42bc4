/// A piece of a SQL command as a script's parser splits it once, so that a transaction is built
/// by joining pieces instead of scanning the text for `:variables` at every task.
package enum PgSQLPiece: Equatable, Sendable {
    /// Text sent as it is.
    case text(String)
    /// A variable's value in decimal (`:aid`, a name the script sets or the run defines).
    case variable(String)
}
