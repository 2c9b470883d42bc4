/// Parsers for the per-process and per-thread /proc files: the one place their text is taken
/// apart, for the observer's kept-open files and for `ProcReader` alike. Pure: text in, numbers
/// out, nil for text of another shape (a thread that exited mid-read leaves an empty file).
package enum ProcText {
    /// `/proc/PID/task/TID/schedstat`: nanoseconds on a CPU, nanoseconds waiting on a run queue,
    /// timeslices run (Documentation/scheduler/sched-stats.rst).
    package static func schedstat(_ text: some StringProtocol) -> (
        cpuNanoseconds: UInt64, runQueueNanoseconds: UInt64, timeslices: UInt64
    )? {
        ByteScanner.scan(text) { bytes in
            var scanner = ByteScanner(bytes)
            scanner.skipSpaces()
            guard let cpu = scanner.decimal(), let queue = scanner.decimal(), let slices = scanner.decimal() else {
                return nil
            }
            return (cpu, queue, slices)
        }
    }

    /// The fields of `/proc/PID/stat` and `/proc/PID/task/TID/stat` poolsize uses (proc_pid_stat(5)).
    package struct Stat: Equatable, Sendable {
        /// Field 2 without its parentheses: the thread's name (may hold spaces and parentheses).
        package var comm: String
        /// Field 3: R running or runnable, S sleeping, D uninterruptible (disk), T stopped, …
        package var state: Character
        /// Field 4: the parent's process id.
        package var parent: Int32
        /// Field 6: the session id.
        package var session: Int32
        /// Fields 14 and 15: user and system CPU, in clock ticks.
        package var cpuTicks: UInt64
        /// Field 22: when the thread started, in clock ticks since boot.
        package var startTicks: UInt64
    }

    /// Parses a stat line. The fields are counted after the *last* `)`: a JVM thread named
    /// `C2 CompilerThre` or a comm holding `) S (` would shift a naive split.
    package static func stat(_ text: some StringProtocol) -> Stat? {
        ByteScanner.scan(text) { bytes -> Stat? in
            guard let open = bytes.firstIndex(of: 0x28), let close = bytes.lastIndex(of: 0x29), open < close else {
                return nil
            }
            var scanner = ByteScanner(bytes, from: close + 1)
            scanner.skipSpaces()
            guard !scanner.atEnd else { return nil }
            let state = Character(Unicode.Scalar(bytes[scanner.position]))
            // Field 3 is the state, then the parent (4), the process group (5) and the session
            // (6); utime and stime are fields 14 and 15, starttime field 22.
            scanner.skipField()
            guard let parent = scanner.decimal() else { return nil }
            scanner.skipField()
            guard let session = scanner.decimal() else { return nil }
            for _ in 7..<14 { scanner.skipField() }
            guard let user = scanner.decimal(), let system = scanner.decimal() else { return nil }
            for _ in 16..<22 { scanner.skipField() }
            guard let start = scanner.decimal() else { return nil }
            let comm = String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]), as: UTF8.self)
            return Stat(
                comm: comm, state: state, parent: Int32(truncatingIfNeeded: parent),
                session: Int32(truncatingIfNeeded: session), cpuTicks: user + system, startTicks: start)
        }
    }

    /// stat's state letter alone: the first character after the last `)` and its space.
    package static func state(of text: some StringProtocol) -> Character? {
        ByteScanner.scan(text) { bytes -> Character? in
            guard let close = bytes.lastIndex(of: 0x29) else { return nil }
            var scanner = ByteScanner(bytes, from: close + 1)
            scanner.skipSpaces()
            return scanner.atEnd ? nil : Character(Unicode.Scalar(bytes[scanner.position]))
        }
    }

    /// stat's field 9, the kernel's per-task flags (`PF_*` in include/linux/sched.h).
    package static func flags(of text: some StringProtocol) -> UInt64? {
        ByteScanner.scan(text) { bytes -> UInt64? in
            guard let close = bytes.lastIndex(of: 0x29) else { return nil }
            var scanner = ByteScanner(bytes, from: close + 1)
            scanner.skipSpaces()
            for _ in 3..<9 { scanner.skipField() }
            return scanner.decimal()
        }
    }

    /// `PF_KTHREAD`: the task is a kernel thread, which runs no user-space code.
    package static let kernelThreadFlag: UInt64 = 0x0020_0000

    /// `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` from `/proc/PID/task/TID/status`.
    package static func switches(_ text: some StringProtocol) -> (voluntary: UInt64, involuntary: UInt64)? {
        guard let voluntary = statusValue(text, key: "voluntary_ctxt_switches"),
            let involuntary = statusValue(text, key: "nonvoluntary_ctxt_switches")
        else { return nil }
        return (voluntary, involuntary)
    }

    /// The real user id (first number of `Uid:`) from a status text.
    package static func realUID(_ text: some StringProtocol) -> UInt32? {
        statusValue(text, key: "Uid").flatMap { UInt32(exactly: $0) }
    }

    /// The effective user id (second number of `Uid:`) from a status text.
    package static func effectiveUID(_ text: some StringProtocol) -> UInt32? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
        let fields = line.dropFirst(4).split(whereSeparator: \.isWhitespace)
        return fields.count >= 2 ? UInt32(fields[1]) : nil
    }

    /// The signals a process catches (a handler installed), as the bit mask of `SigCgt:` in its
    /// status text: signal n is bit n − 1.
    package static func caughtSignals(_ text: some StringProtocol) -> UInt64? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }) else { return nil }
        return UInt64(String(line.dropFirst(7).filter { !$0.isWhitespace }), radix: 16)
    }

    /// The first number after `key:` at the start of a line of a status text (bytes: status is
    /// about 1.5 KB and read for every thread at the first and last sweep).
    package static func statusValue(_ text: some StringProtocol, key: String) -> UInt64? {
        let pattern = Array((key + ":").utf8)
        return ByteScanner.scan(text) { bytes -> UInt64? in
            var lineStart = 0
            while lineStart + pattern.count <= bytes.count {
                if (0..<pattern.count).allSatisfy({ bytes[lineStart + $0] == pattern[$0] }) {
                    var scanner = ByteScanner(bytes, from: lineStart + pattern.count)
                    scanner.skipSpaces()
                    return scanner.decimal()
                }
                guard let newline = bytes[lineStart...].firstIndex(of: 0x0A) else { return nil }
                lineStart = newline + 1
            }
            return nil
        }
    }

    /// The machine's busy time from a `/proc/stat` text: its aggregate `cpu` line's user + nice
    /// + system + irq + softirq + steal, in USER_HZ ticks (proc_stat(5)).
    package static func machineBusyTicks(_ stat: some StringProtocol) -> UInt64? {
        guard let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard fields.count >= 8 else { return nil }
        return fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
    }

    /// Resident pages from a `/proc/PID/statm` text: its second number (proc_pid_statm(5)).
    package static func residentPages(_ statm: some StringProtocol) -> UInt64? {
        ByteScanner.scan(statm) { bytes -> UInt64? in
            var scanner = ByteScanner(bytes)
            scanner.skipSpaces()
            guard scanner.decimal() != nil else { return nil }
            return scanner.decimal()
        }
    }

    /// The shared objects a `/proc/PID/maps` text maps: each path holding `.so`, once, in the
    /// order first mapped (proc_pid_maps(5): the path is the sixth field, and may hold spaces).
    package static func sharedObjects(_ maps: some StringProtocol) -> [String] {
        // Bytes and plain index loops: a JVM maps thousands of regions.
        ByteScanner.scan(maps) { bytes -> [String] in
            var seen = Set<String>(), result: [String] = []
            var index = 0, slash = -1, shared = false
            let count = bytes.count
            while index <= count {
                let byte: UInt8 = index < count ? bytes[index] : 0x0A
                if byte == 0x0A {
                    if slash >= 0 && shared {
                        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[slash..<index]), as: UTF8.self)
                        if seen.insert(text).inserted { result.append(text) }
                    }
                    slash = -1
                    shared = false
                } else if byte == 0x2F && slash < 0 {
                    slash = index
                } else if byte == 0x2E && slash >= 0 && index + 2 < count && bytes[index + 1] == 0x73
                    && bytes[index + 2] == 0x6F
                {
                    shared = true
                }
                index += 1
            }
            return result
        }
    }

    /// The descriptors an epoll instance watches, from its `/proc/PID/fdinfo/EPFD` text: one
    /// `tfd: N events: … data: …` line each (proc_pid_fdinfo(5)).
    package static func epollTargets(_ fdinfo: some StringProtocol) -> [Int32] {
        fdinfo.split(separator: "\n").compactMap { line -> Int32? in
            guard line.hasPrefix("tfd:") else { return nil }
            return line.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int32($0) }
        }
    }

    /// The inodes of the sockets listening on `port` in `/proc/net/tcp` or `/proc/net/tcp6`
    /// (proc_net(5)): rows whose state is 0A (LISTEN) and whose local address ends in the port,
    /// four hex digits after a colon; the inode is the tenth field.
    package static func listeningInodes(_ table: some StringProtocol, port: Int) -> Set<UInt64> {
        var inodes: Set<UInt64> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port, let inode = UInt64(fields[9])
            else { continue }
            inodes.insert(inode)
        }
        return inodes
    }
}
