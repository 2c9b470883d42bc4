/// Why a transaction of a pgbench script could not be built: an expression without a value.
package struct PgScriptFailure: Error, Equatable, Sendable {
    /// What went wrong, for the task's failure line.
    package var reason: String

    /// A failure saying `reason`.
    package init(_ reason: String) { self.reason = reason }
}
