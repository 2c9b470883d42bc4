import Foundation

/// The socket tables of the network namespaces the watched processes live in, shared by their
/// watchers. Reading /proc/PID/net/tcp walks the kernel's whole connection hash table, which
/// takes milliseconds even with a few sockets open (5 ms for tcp and as much for tcp6 on the
/// project's VM), so a namespace's tables are read once for all its processes, and read again
/// for a socket not in them (a new connection) only after a pause a thousand times as long as
/// the last read took: at most 0.1% of a core, at least a second. Until then a new socket is
/// one of unknown role. Not thread-safe: one sampler owns it.
final class SocketTables {
    private var namespaces: [String: (tables: [UInt64: SocketEndpoint], time: Double, pause: Double)] = [:]
    /// How many times the cost of a read the tables rest before the next.
    static let pauseFactor = 1000.0
    /// CPU spent reading tables so far, nanoseconds: paced by the pause above, so the sampler
    /// leaves it out of the per-sweep cost that sets its rate (one read under load can take
    /// 100 ms, which would slow the sweeps down to one every few seconds for a while).
    private(set) var readNanoseconds: UInt64 = 0

    /// The namespace of `pid` (`net:[4026531840]`), or the pid itself when unreadable.
    static func namespace(of pid: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/\(pid)/ns/net", &buffer, buffer.count - 1)
        return count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "pid \(pid)"
    }

    /// The endpoint of socket `inode` in `namespace`, read through `pid`'s view of it; nil when
    /// not found.
    func endpoint(_ inode: UInt64, namespace: String, pid: Int32, now: Double) -> SocketEndpoint? {
        if let entry = namespaces[namespace] {
            if let endpoint = entry.tables[inode] { return endpoint }
            guard now - entry.time >= entry.pause else { return nil }
        }
        let start = ObserverClock.threadCPUNanoseconds()
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
        let spent = ObserverClock.threadCPUNanoseconds() - start
        readNanoseconds += spent
        let cost = Double(spent) / 1e9
        namespaces[namespace] = (tables, now, max(DescriptorCache.lifetimeSeconds, Self.pauseFactor * cost))
        return tables[inode]
    }
}
