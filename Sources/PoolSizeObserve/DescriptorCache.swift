import Foundation

/// The target's descriptor links and socket tables, read on demand and kept for a second: a
/// thread blocked on descriptor 7 now is most likely blocked on the same descriptor 7 next
/// time, and reading /proc/PID/net/tcp on a busy server is not cheap. A second is short enough
/// that a reused descriptor number is rarely mislabelled, and the labels only feed the
/// "top calls" and "top peers" tables.
final class DescriptorCache {
    let pid: Int32
    static let lifetimeSeconds = 1.0
    private var links: [UInt64: (link: String?, time: Double)] = [:]
    private var sockets: [UInt64: SocketEndpoint] = [:]
    private var socketsTime = -Double.infinity

    init(pid: Int32) {
        self.pid = pid
    }

    /// The link of descriptor `fd` (`socket:[123]`), nil when unreadable.
    func link(_ fd: UInt64, now: Double) -> String? {
        if let cached = links[fd], now - cached.time < Self.lifetimeSeconds { return cached.link }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/\(pid)/fd/\(fd)", &buffer, buffer.count - 1)
        let link = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        links[fd] = (link, now)
        return link
    }

    /// The endpoint of socket `inode`, from the target's own network namespace's tables.
    func socket(_ inode: UInt64, now: Double) -> SocketEndpoint? {
        if let endpoint = sockets[inode] { return endpoint }
        guard now - socketsTime >= Self.lifetimeSeconds else { return nil }
        socketsTime = now
        var tables: [UInt64: SocketEndpoint] = [:]
        for table in ["tcp", "tcp6", "udp", "udp6"] {
            if case let .success(text) = ProcFile.readOnce("/proc/\(pid)/net/\(table)") {
                tables.merge(NetTable.inet(text, table: table)) { a, _ in a }
            }
        }
        if case let .success(text) = ProcFile.readOnce("/proc/\(pid)/net/unix") {
            tables.merge(NetTable.unix(text)) { a, _ in a }
        }
        sockets = tables
        return sockets[inode]
    }
}
