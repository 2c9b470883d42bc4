import Foundation
import PoolSizeProcess

/// The target's descriptor links and socket tables (through `SocketTables`, shared by every
/// process in a network namespace), read on demand and kept for a second: a thread blocked on
/// descriptor 7 now is most likely blocked on the same descriptor 7 next time, and reading
/// /proc/PID/net/tcp is not cheap. A second is short enough that a reused descriptor number is
/// rarely misread.
final class DescriptorCache {
    let pid: Int32
    static let lifetimeSeconds = 1.0
    private var links: [UInt64: (link: String?, time: Double)] = [:]
    private let sockets: SocketTables
    private let namespace: String
    private var epollSets: [UInt64: (fds: [Int32]?, time: Double)] = [:]
    private var memory: Int32 = -1
    private var memoryRefused = false
    /// The most descriptors of a set looked at for a listening socket.
    static let examinedLimit = 256

    init(pid: Int32, sockets: SocketTables) {
        self.pid = pid
        self.sockets = sockets
        namespace = SocketTables.namespace(of: pid)
    }

    deinit {
        if memory >= 0 { close(memory) }
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
        sockets.endpoint(inode, namespace: namespace, pid: pid, now: now)
    }

    /// What a multiplexed wait watches: the descriptors of epoll instance `arguments[0]`
    /// (fdinfo), of poll's array, or of select's read and write bitmaps (read from the target's
    /// memory, which the same ptrace check guards as its syscall file). The listening socket
    /// alone once one is found, else up to `RawThreadTexts.waitSetLimit` descriptors; with the
    /// set's size. nil when the set cannot be read.
    func waitSet(_ call: BlockingSyscall, arguments: [UInt64], now: Double) -> (members: [RawDescriptor], size: Int)? {
        let fds: [Int32]?
        switch call {
        case .epollWait, .epollPwait, .epollPwait2:
            fds = epollMembers(arguments[0], now: now)
        case .poll, .ppoll:
            let count = Int(min(arguments[1], UInt64(Self.examinedLimit)))
            // struct pollfd { int fd; short events; short revents; }: a negative fd is skipped.
            fds = readMemory(at: arguments[0], count: count * 8).map { bytes in
                stride(from: 0, to: bytes.count - 7, by: 8).map { Self.int32(bytes, at: $0) }.filter { $0 >= 0 }
            }
        case .select, .pselect6:
            // fd_set is an array of longs, bit n of the set in bit n % 64 of long n / 64: on a
            // little-endian machine, bit n % 8 of byte n / 8.
            let count = Int(min(arguments[0], 1024))
            var found: Set<Int32>? = nil
            for address in [arguments[1], arguments[2]] where address != 0 {
                guard let bytes = readMemory(at: address, count: (count + 7) / 8) else { continue }
                var set = found ?? []
                for fd in 0..<count where bytes[fd / 8] >> (fd % 8) & 1 == 1 { set.insert(Int32(fd)) }
                found = set
            }
            fds = found.map { $0.sorted() }
        default:
            return nil
        }
        guard let fds else { return nil }
        var members: [RawDescriptor] = []
        for fd in fds.prefix(Self.examinedLimit) {
            guard let link = link(UInt64(fd), now: now) else { continue }
            var socket: SocketEndpoint?
            if case let .socket(inode)? = DescriptorKind(link: link) { socket = self.socket(inode, now: now) }
            let member = RawDescriptor(link: link, socket: socket)
            if socket?.state == "LISTEN" { return ([member], fds.count) }
            if members.count < RawThreadTexts.waitSetLimit { members.append(member) }
        }
        return (members, fds.count)
    }

    /// The little-endian 32-bit integer at `offset`.
    static func int32(_ bytes: [UInt8], at offset: Int) -> Int32 {
        var value: UInt32 = 0
        for index in (0..<4).reversed() { value = value << 8 | UInt32(bytes[offset + index]) }
        return Int32(bitPattern: value)
    }

    /// The descriptors an epoll instance watches: the `tfd:` lines of /proc/PID/fdinfo/EPFD.
    func epollMembers(_ epfd: UInt64, now: Double) -> [Int32]? {
        if let cached = epollSets[epfd], now - cached.time < Self.lifetimeSeconds { return cached.fds }
        let fds = (try? ProcFile.readOnce("/proc/\(pid)/fdinfo/\(epfd)").get()).map(ProcText.epollTargets)
        epollSets[epfd] = (fds, now)
        return fds
    }

    /// `count` bytes of the target's memory at `address`; nil when /proc/PID/mem is refused or
    /// the read falls short (the thread returned and its stack moved on).
    func readMemory(at address: UInt64, count: Int) -> [UInt8]? {
        guard count > 0, address > 0, address < UInt64(Int64.max) else { return count == 0 ? [] : nil }
        if memory < 0 {
            guard !memoryRefused else { return nil }
            memory = open("/proc/\(pid)/mem", O_RDONLY | O_CLOEXEC)
            if memory < 0 {
                memoryRefused = true
                return nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(memory, $0.baseAddress, count, off_t(address)) }
        return read == count ? bytes : nil
    }
}
