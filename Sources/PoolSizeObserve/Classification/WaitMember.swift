/// What one descriptor of a multiplexed wait (epoll_wait, poll, select) is, as far as it tells
/// what the wait is for: a listening socket means a thread waiting for connections; a client's
/// connection means waiting for its next request or for the rest of one; any other socket a
/// server's answer; pipes and wake-ups (eventfd, signalfd) could be a task queue or a child's
/// output (docs/guide/observe.md, classes of off-CPU time).
package enum WaitMember: Hashable, Sendable {
    /// A listening socket: the wait accepts connections.
    case listener
    /// A connection a listening socket in the target's network namespace accepted: a client's.
    case client
    /// Any other socket: a connection the target opened to a server, a datagram socket, a
    /// socket pair.
    case socket
    /// A pipe or FIFO.
    case pipe
    /// eventfd, signalfd, timerfd, a nested epoll instance: a wake-up.
    case wakeup(String)
    /// A regular file or a device.
    case file
    /// Beyond what was read of a large set, or a descriptor whose link was gone.
    case unknown

    /// A member from its link and socket endpoint.
    package init(_ raw: RawDescriptor) {
        switch DescriptorKind(link: raw.link) {
        case .socket?:
            if raw.socket?.state == "LISTEN" {
                self = .listener
            } else if raw.socket?.inbound == true {
                self = .client
            } else {
                self = .socket
            }
        case .pipe?: self = .pipe
        case .eventPoll?: self = .wakeup("epoll")
        case let .anonymous(name)?: self = .wakeup(name.isEmpty ? "anon_inode" : name)
        case .device?, .file?: self = .file
        case nil: self = .unknown
        }
    }

    /// A short name for the "blocked in" labels.
    package var label: String {
        switch self {
        case .listener: return "listening"
        case .client: return "client"
        case .socket: return "socket"
        case .pipe: return "pipe"
        case let .wakeup(name): return name
        case .file: return "file"
        case .unknown: return "unread"
        }
    }
}
