/// A piece of a SQL command split at its `:variables` (`PgScript.split`), which `PgProgram`
/// compiles once into literal bytes and slots, instead of scanning the text at every task.
package enum PgSQLPiece: Equatable, Sendable {
    /// Text sent as it is.
    case text(String)
    /// A variable's value in decimal (`:aid`, a name the script sets or the run defines).
    case variable(String)
}
