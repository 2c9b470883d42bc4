/// How a `--postgres` sweep's client drives its N connections.
package enum PostgresClient: String, Codable, Sendable, CaseIterable {
    /// A few threads (one per core at most), each sending commands without blocking on many
    /// connections, as pgbench does: the database behind N connections, with as little of the
    /// client's own work on the cores as can be.
    case async
    /// A pool of N threads, each holding one connection and blocking on it, as a JDBC or
    /// psycopg pool does: the pool's own threads are part of what is measured.
    case threads
}
