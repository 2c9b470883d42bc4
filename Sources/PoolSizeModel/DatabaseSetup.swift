/// A database sweep (`sweep --postgres`) as its plan records it: the pool is poolsize's own, each
/// thread holding one connection, and what the plan keeps is what the report and `--resume`
/// need of the server: where it is (the URL's credentials masked), how many connections the
/// sweep may hold, whether it runs on this machine, and the statement timeout each connection
/// sets.
package struct DatabaseSetup: Sendable, Equatable, Codable {
    /// The connection as shown: the URL or key=value string with its secrets masked.
    package var connection: String
    /// The connections the sweep may hold: the server's max_connections less those reserved
    /// for superusers and those other clients held when the run started; nil when the server
    /// would not say. The sizes the sweep measures stay within it, and a resumed run keeps the
    /// limit its run recorded, so its plan is the same whoever has connected since.
    package var connectionLimit: Int?
    /// Whether the server runs on this machine (a Unix socket or a loopback address), so that
    /// its cores are this machine's.
    package var serverIsLocal: Bool
    /// The statement timeout each connection sets (the server cancels a statement running
    /// longer, SQLSTATE 57014).
    package var statementTimeoutSeconds: Double
    /// The SHA-256 of the transaction's script text (`sha256sum` of a script file), so that
    /// two runs of different transactions are told apart (`compare`, `--resume`) without the
    /// run keeping the script; nil in a run recorded before it was kept.
    package var scriptSHA256: String?
    /// How the client drove the connections; nil in a run recorded before it was a choice,
    /// whose pool threads each held one (`threads`).
    package var client: PostgresClient?

    /// A setup as recorded.
    package init(
        connection: String, connectionLimit: Int?, serverIsLocal: Bool, statementTimeoutSeconds: Double,
        scriptSHA256: String? = nil
    ) {
        self.connection = connection
        self.connectionLimit = connectionLimit
        self.serverIsLocal = serverIsLocal
        self.statementTimeoutSeconds = statementTimeoutSeconds
        self.scriptSHA256 = scriptSHA256
    }

    /// The file's keys: `script_sha256` reads back as `scriptSha256` (RunDirectoryJSON).
    enum CodingKeys: String, CodingKey {
        case connection, connectionLimit, serverIsLocal, statementTimeoutSeconds, client
        case scriptSHA256 = "scriptSha256"
    }

    /// The setup as messages show it.
    package var summary: String {
        let limit =
            connectionLimit.map { "at most \($0) connection\($0 == 1 ? "" : "s")" } ?? "no connection limit known"
        let place = serverIsLocal ? "on this machine" : "on another machine"
        let driven = client.map { ", client \($0.rawValue)" } ?? ""
        return
            "PostgreSQL at \(connection) (\(place), \(limit)), statement timeout \(UnitFormat.duration(statementTimeoutSeconds))\(driven)"
    }
}
