/// One step of a transaction built from a script (`PgScript.transaction`): what a connection
/// does, in order.
package enum PgStep: Equatable, Sendable {
    /// Send this SQL, variables substituted, and wait for its result.
    case sql(String)
    /// Hold the connection idle this many microseconds.
    case sleep(microseconds: Int64)
}
