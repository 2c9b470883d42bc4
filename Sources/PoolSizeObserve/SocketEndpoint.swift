/// One socket of the target as /proc/PID/net/{tcp,tcp6,udp,udp6,unix} lists it: what a thread
/// blocked on that socket waits for.
package struct SocketEndpoint: Equatable, Sendable, Codable {
    /// `tcp`, `tcp6`, `udp`, `udp6` or `unix`.
    package var table: String
    /// This end: `127.0.0.1:8080`, `[::1]:443`, or a unix socket's path (empty when unnamed).
    package var local: String
    /// The other end (`127.0.0.1:51234`); nil for a listening, unconnected or unix socket.
    package var remote: String?
    /// TCP's state (`ESTABLISHED`, `LISTEN`, `SYN_SENT`, …); nil for the others.
    package var state: String?

    /// An endpoint from its parts.
    package init(table: String, local: String, remote: String?, state: String?) {
        self.table = table
        self.local = local
        self.remote = remote
        self.state = state
    }

    /// What tables show as the peer: the remote address, `listening on LOCAL`, or the unix path.
    package var peerLabel: String {
        if let remote { return "\(table) \(remote)" }
        if state == "LISTEN" { return "\(table) listening on \(local)" }
        return table == "unix" ? "unix \(local.isEmpty ? "(unnamed)" : local)" : "\(table) \(local)"
    }
}
