/// One descriptor of a multiplexed wait's set (epoll, poll, select), as read: its
/// `/proc/PID/fd/N` link and, for a socket, its endpoint.
package struct RawDescriptor: Equatable, Sendable, Codable {
    /// The link text (`socket:[123]`, `pipe:[7]`, `anon_inode:[signalfd]`, a path).
    package var link: String
    /// The socket's endpoint, when it is one and was found in the target's tables.
    package var socket: SocketEndpoint?
}
