import PoolSizeModel

/// A connection pool against the user's PostgreSQL (`--postgres`): each pool thread holds one
/// connection and runs `script`, a pgbench script, as one task.
package struct PostgresTask: Sendable, Equatable, Codable {
    /// A libpq connection URL or `key=value` string.
    package var connection: String
    /// The transaction, as a pgbench script.
    package var script: String
    /// The file the script was read from (its name names the workload); nil when given inline.
    package var scriptFile: String?
    /// Variables set for the whole run (pgbench's `-D`).
    package var variables: [String: Int64] = [:]
    /// How the connections are driven; nil for the default: a few threads without blocking
    /// (`async`) for a closed loop, a thread per connection for an open loop's arrivals.
    package var client: PostgresClient?

    /// `script` on connections made with `connection`.
    package init(connection: String, script: String, scriptFile: String? = nil) {
        self.connection = connection
        self.script = script
        self.scriptFile = scriptFile
    }

    /// Which setting the script came from, as errors about it name it.
    package var scriptParameter: PoolSizeError.Parameter { scriptFile == nil ? .sql : .sqlFile }

    /// What a run records: the connection with its password masked, and whether it had one.
    /// The script is kept whole, so that a resume runs the very transaction the run began with.
    package var recorded: (task: PostgresTask, withheld: Bool) {
        // A user name is no secret (libpq's PGPASSWORD and ~/.pgpass supply the password on a
        // resume); only a connection string with a password is masked.
        guard !Secrets.passwords(inConninfo: connection).isEmpty else { return (self, false) }
        var copy = self
        copy.connection = Secrets.conninfo(connection)
        return (copy, true)
    }
}
