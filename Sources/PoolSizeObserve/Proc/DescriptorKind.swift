/// What a descriptor of the target is, from its `/proc/PID/fd/N` link text (proc_pid_fd(5)):
/// `socket:[INODE]`, `pipe:[INODE]`, `anon_inode:[eventpoll]`, a path.
package enum DescriptorKind: Equatable, Sendable {
    /// A socket; the inode finds it in /proc/PID/net/{tcp,tcp6,udp,udp6,unix}.
    case socket(inode: UInt64)
    /// A pipe or FIFO end.
    case pipe(inode: UInt64)
    /// An epoll instance: a thread blocked on it is an event loop waiting for work.
    case eventPoll
    /// eventfd, signalfd, timerfd, inotify and the like: a wake-up, not IO.
    case anonymous(name: String)
    /// A character or block device (`/dev/…`), a terminal included.
    case device(path: String)
    /// A regular file or directory.
    case file(path: String)

    /// Parses the link text; nil for an empty one.
    package init?(link: String) {
        guard !link.isEmpty else { return nil }
        if let inode = Self.bracketed(link, prefix: "socket:[") {
            self = .socket(inode: inode)
        } else if let inode = Self.bracketed(link, prefix: "pipe:[") {
            self = .pipe(inode: inode)
        } else if link.hasPrefix("anon_inode:") {
            var name = link.utf8.dropFirst("anon_inode:".count)
            if name.first == UInt8(ascii: "[") && name.last == UInt8(ascii: "]") { name = name.dropFirst().dropLast() }
            let text = String(decoding: name, as: UTF8.self)
            self = text == "eventpoll" ? .eventPoll : .anonymous(name: text)
        } else if link.hasPrefix("/dev/") {
            self = .device(path: link)
        } else {
            self = .file(path: link)
        }
    }

    /// A short name for tables: `socket`, `pipe`, `epoll`, `eventfd`, `device`, `file`.
    package var label: String {
        switch self {
        case .socket: return "socket"
        case .pipe: return "pipe"
        case .eventPoll: return "epoll"
        case let .anonymous(name): return name.isEmpty ? "anon_inode" : name
        case .device: return "device"
        case .file: return "file"
        }
    }

    private static func bracketed(_ link: String, prefix: String) -> UInt64? {
        guard link.hasPrefix(prefix), link.hasSuffix("]") else { return nil }
        return UInt64(String(decoding: link.utf8.dropFirst(prefix.utf8.count).dropLast(), as: UTF8.self))
    }
}
