/// Parses the socket tables of a network namespace (proc_net(5); /proc/PID/net/… is the
/// target's namespace, which may not be ours): inode → endpoint. Pure.
package enum NetTable {
    /// TCP states as the kernel numbers them (include/net/tcp_states.h).
    static let tcpStates: [UInt8: String] = [
        1: "ESTABLISHED", 2: "SYN_SENT", 3: "SYN_RECV", 4: "FIN_WAIT1", 5: "FIN_WAIT2", 6: "TIME_WAIT",
        7: "CLOSE", 8: "CLOSE_WAIT", 9: "LAST_ACK", 10: "LISTEN", 11: "CLOSING",
    ]

    /// The endpoints of a `tcp`, `tcp6`, `udp` or `udp6` table's text, by inode.
    /// Lines: `sl local rem st tx:rx tr:when retrnsmt uid timeout inode …`, addresses in hex.
    package static func inet(_ text: String, table: String) -> [UInt64: SocketEndpoint] {
        var result: [UInt64: SocketEndpoint] = [:]
        let isTCP = table.hasPrefix("tcp")
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count >= 10, let inode = UInt64(fields[9]), inode != 0,
                let local = address(fields[1]), let remote = address(fields[2]),
                let stateCode = UInt8(fields[3], radix: 16)
            else { continue }
            let state = isTCP ? tcpStates[stateCode] : nil
            let unconnected = state == "LISTEN" || remote == "0.0.0.0:0" || remote == "[::]:0"
            result[inode] = SocketEndpoint(table: table, local: local, remote: unconnected ? nil : remote, state: state)
        }
        return result
    }

    /// The endpoints of a `unix` table's text: `Num RefCount Protocol Flags Type St Inode [Path]`.
    /// Flags 00010000 (`__SO_ACCEPTCON`) marks a listening socket, St 03 a connected one.
    package static func unix(_ text: String) -> [UInt64: SocketEndpoint] {
        var result: [UInt64: SocketEndpoint] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", maxSplits: 7)
            guard fields.count >= 7, let inode = UInt64(fields[6]) else { continue }
            let path = fields.count > 7 ? String(fields[7]) : ""
            let flags = UInt32(fields[3], radix: 16) ?? 0
            let state = flags & 0x10000 != 0 ? "LISTEN" : fields[5] == "03" ? "CONNECTED" : nil
            result[inode] = SocketEndpoint(table: "unix", local: path, remote: nil, state: state)
        }
        return result
    }

    /// Marks each connected socket of `tables` (a namespace's tcp, tcp6 and unix tables merged)
    /// inbound or not: a TCP connection whose local port a socket listens on (at its address or
    /// a wildcard) was accepted, one whose port nobody listens on was opened outward; a
    /// connected unix socket bound to a listening path was accepted, an unnamed one cannot be
    /// told (a client's end and a socket pair look the same).
    package static func markInbound(_ tables: inout [UInt64: SocketEndpoint]) {
        var listening = Set<String>(), listeningPaths = Set<String>()
        for endpoint in tables.values where endpoint.state == "LISTEN" {
            if endpoint.table == "unix" {
                if !endpoint.local.isEmpty { listeningPaths.insert(endpoint.local) }
            } else {
                listening.insert(endpoint.local)
            }
        }
        for (inode, endpoint) in tables where endpoint.state != "LISTEN" {
            if endpoint.table == "unix" {
                guard endpoint.state == "CONNECTED", !endpoint.local.isEmpty else { continue }
                tables[inode]?.inbound = listeningPaths.contains(endpoint.local)
            } else if endpoint.table.hasPrefix("tcp"), endpoint.remote != nil,
                let split = endpoint.local.lastIndex(of: ":")
            {
                // `:5432`; a tcp6 socket accepted for IPv4 shows its address as IPv4.
                let port = endpoint.local[split...]
                tables[inode]?.inbound =
                    listening.contains(endpoint.local) || listening.contains("0.0.0.0" + port)
                    || listening.contains("[::]" + port)
            }
        }
    }

    /// `0100007F:1F90` → `127.0.0.1:8080`; 32 hex digits → `[v6]:port`. The kernel prints each
    /// 32-bit word of the address as a number in host order (little-endian on x86_64 and
    /// aarch64, so the bytes come out reversed) and the port as a plain number.
    static func address(_ field: Substring) -> String? {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1], radix: 16) else { return nil }
        let hex = parts[0]
        var words: [UInt32] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let end = hex.index(index, offsetBy: 8, limitedBy: hex.endIndex),
                let word = UInt32(hex[index..<end], radix: 16)
            else { return nil }
            words.append(word)
            index = end
        }
        let bytes = words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word.littleEndian >> (8 * $0)) } }
        switch bytes.count {
        case 4:
            return bytes.map(String.init).joined(separator: ".") + ":\(port)"
        case 16:
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return bytes[12...].map(String.init).joined(separator: ".") + ":\(port)"
            }
            let groups = stride(from: 0, to: 16, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            return "[\(compress(groups))]:\(port)"
        default:
            return nil
        }
    }

    /// RFC 5952's shortening: the longest run of zero groups (two or more) becomes `::`.
    static func compress(_ groups: [String]) -> String {
        var best = (start: -1, length: 0), run = (start: -1, length: 0)
        for (i, group) in groups.enumerated() {
            if group == "0" {
                run = run.start < 0 ? (i, 1) : (run.start, run.length + 1)
                if run.length > best.length { best = run }
            } else {
                run = (-1, 0)
            }
        }
        guard best.length >= 2 else { return groups.joined(separator: ":") }
        let head = groups[..<best.start].joined(separator: ":"),
            tail = groups[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }
}
