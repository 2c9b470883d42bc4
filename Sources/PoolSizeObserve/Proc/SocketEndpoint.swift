/// One socket of the target as /proc/PID/net/{tcp,tcp6,udp,udp6,unix} lists it: what a thread
/// blocked on that socket waits for.
package struct SocketEndpoint: Equatable, Sendable, Codable {
    /// `tcp`, `tcp6`, `udp`, `udp6` or `unix`.
    package var table: String
    /// This end: `127.0.0.1:8080`, `[::1]:443`, or a unix socket's path (empty when unnamed).
    package var local: String
    /// The other end (`127.0.0.1:51234`); nil for a listening, unconnected or unix socket.
    package var remote: String?
    /// TCP's state (`ESTABLISHED`, `LISTEN`, `SYN_SENT`, …); a unix socket's `LISTEN` or
    /// `CONNECTED`; nil for the others.
    package var state: String?
    /// Whether a listening socket of the same namespace accepted it (its local port, or unix
    /// path, is one a socket listens on): a client's connection to the target, as opposed to
    /// one the target opened to a server (false); nil when that cannot be told (datagrams, an
    /// unnamed unix socket, tables read without it).
    package var inbound: Bool?

    /// What tables show as the peer: the remote address, `listening on LOCAL`, or the unix path.
    package var peerLabel: String {
        if let remote { return "\(table) \(remote)" }
        if state == "LISTEN" { return "\(table) listening on \(local)" }
        return table == "unix" ? "unix \(local.isEmpty ? "(unnamed)" : local)" : "\(table) \(local)"
    }
}
