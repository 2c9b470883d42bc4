/// How a server sweep sets the server's pool size: by starting the server with each size, or by
/// running a resize command against the one server it started (`resize`).
package enum ServerSizing: Sendable, Equatable, Codable {
    /// The server is started at each size, `{size}` in its command.
    case restart
    /// The server is started once; the command (placeholders unfilled) sets each size, and the
    /// server is given `settleSeconds` before it is measured.
    case resize(command: String, settleSeconds: Double)
}
