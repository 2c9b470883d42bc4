import PoolSizeModel

/// Reads what a chain's database allows its role (`ConnectionLimit`) over one connection that
/// it closes before returning, so the sweep's own connection is not counted against the chain.
package enum ConnectionLimitReader {
    /// `reserved_connections` is PostgreSQL 16's: `current_setting(…, true)` is NULL before it.
    static let query = """
        SELECT current_setting('max_connections'),
               current_setting('superuser_reserved_connections'),
               coalesce(current_setting('reserved_connections', true), '0'),
               r.rolsuper, r.rolconnlimit,
               (SELECT count(*) FROM pg_stat_activity
                 WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()),
               (SELECT count(*) FROM pg_stat_activity
                 WHERE backend_type = 'client backend' AND usename = current_user AND pid <> pg_backend_pid())
          FROM pg_roles r WHERE r.rolname = current_user
        """

    /// Connects to `conninfo` (the `database` setting) and reads the limit; a failure names the
    /// setting and libpq's or the server's reason.
    package static func read(_ conninfo: String) throws(PoolSizeError) -> ConnectionLimit {
        let connection = try PostgresConnection(conninfo, parameter: .database)
        defer { connection.close() }
        guard let row = connection.rows(query)?.first, row.count == 7 else {
            throw .invalidParameter(
                .database,
                message:
                    "connected, but could not read max_connections and pg_stat_activity as this role; connect as a role that may read them (pg_monitor)"
            )
        }
        return try limit(row)
    }

    /// The limit from the query's one row, as text.
    package static func limit(_ row: [String]) throws(PoolSizeError) -> ConnectionLimit {
        let numbers = [0, 1, 2, 4, 5, 6].map { Int(row[$0]) }
        guard numbers.allSatisfy({ $0 != nil }) else {
            throw .invalidParameter(.database, message: "the server's settings could not be read: \(row)")
        }
        let superuser = row[3] == "t"
        let (maximum, superReserved, reserved, roleLimit, inUse, roleInUse) = (
            numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!, numbers[4]!, numbers[5]!
        )
        return ConnectionLimit(
            maxConnections: maximum, reserved: superuser ? 0 : superReserved + reserved,
            roleLimit: roleLimit < 0 || superuser ? nil : roleLimit, inUse: inUse, roleInUse: roleInUse)
    }
}
