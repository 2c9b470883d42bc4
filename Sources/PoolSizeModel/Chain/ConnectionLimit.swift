/// How many connections the database behind a chain lets the chain's role open, from what the
/// server says of itself before the sweep: `max_connections`, the slots reserved for superusers
/// (and, from PostgreSQL 16, for `pg_use_reserved_connections`), the role's own limit, and the
/// connections others hold already.
package struct ConnectionLimit: Equatable, Sendable, Codable {
    /// `max_connections`.
    package var maxConnections: Int
    /// Slots a role without superuser rights cannot take (`superuser_reserved_connections` plus
    /// `reserved_connections`); 0 for a superuser.
    package var reserved: Int
    /// The role's `rolconnlimit`, nil when it has none (-1).
    package var roleLimit: Int?
    /// Connections open before the sweep, held by others (this role's count against its limit).
    package var inUse: Int
    /// Of those, the ones the same role holds (they count against `roleLimit`).
    package var roleInUse: Int
    /// Connections the sweep holds itself while the chain runs (the watch that samples the
    /// database), of the same role.
    package var watching = 0

    package init(maxConnections: Int, reserved: Int, roleLimit: Int?, inUse: Int, roleInUse: Int) {
        (self.maxConnections, self.reserved, self.roleLimit) = (maxConnections, reserved, roleLimit)
        (self.inUse, self.roleInUse) = (inUse, roleInUse)
    }

    /// What the chain may open at once: the server's free slots, or the role's when fewer.
    package var allowed: Int {
        let server = maxConnections - reserved - inUse - watching
        guard let roleLimit else { return max(0, server) }
        return max(0, min(server, roleLimit - roleInUse - watching))
    }

    /// Where `allowed` comes from, for a message: `max_connections 30, 3 reserved, 2 in use`.
    package var explanation: String {
        var parts = ["max_connections \(maxConnections)"]
        if reserved > 0 { parts.append("\(reserved) reserved for superusers") }
        if inUse > 0 { parts.append("\(inUse) in use by others") }
        if watching > 0 { parts.append("\(watching) for poolsize's watch of the database") }
        if let roleLimit, roleLimit - roleInUse < maxConnections - reserved - inUse {
            parts.append("the role's limit \(roleLimit)" + (roleInUse > 0 ? " with \(roleInUse) in use" : ""))
        }
        return parts.joined(separator: ", ")
    }
}
