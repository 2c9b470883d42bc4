import Foundation

/// The socket tables of the network namespaces the watched processes live in, shared by their
/// watchers. Reading /proc/PID/net/tcp walks the kernel's whole connection hash table, which
/// takes milliseconds even with a few sockets open (5 ms for tcp and as much for tcp6 on the
/// project's VM), so a namespace's tables are read at most once a second, not once per process
/// of a server with a process per connection. Not thread-safe: one sampler owns it.
final class SocketTables {
    private var namespaces: [String: (tables: [UInt64: SocketEndpoint], time: Double)] = [:]

    /// The namespace of `pid` (`net:[4026531840]`), or the pid itself when unreadable.
    static func namespace(of pid: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/\(pid)/ns/net", &buffer, buffer.count - 1)
        return count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "pid \(pid)"
    }

    /// The endpoint of socket `inode` in `namespace`, read through `pid`'s view of it; nil when
    /// not found (the tables are read again at most once every `DescriptorCache.lifetimeSeconds`).
    func endpoint(_ inode: UInt64, namespace: String, pid: Int32, now: Double) -> SocketEndpoint? {
        if let entry = namespaces[namespace] {
            if let endpoint = entry.tables[inode] { return endpoint }
            guard now - entry.time >= DescriptorCache.lifetimeSeconds else { return nil }
        }
        var tables: [UInt64: SocketEndpoint] = [:]
        for table in ["tcp", "tcp6", "udp", "udp6"] {
            if case let .success(text) = ProcFile.readOnce("/proc/\(pid)/net/\(table)") {
                tables.merge(NetTable.inet(text, table: table)) { a, _ in a }
            }
        }
        if case let .success(text) = ProcFile.readOnce("/proc/\(pid)/net/unix") {
            tables.merge(NetTable.unix(text)) { a, _ in a }
        }
        NetTable.markInbound(&tables)
        namespaces[namespace] = (tables, now)
        return tables[inode]
    }
}
