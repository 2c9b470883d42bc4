import Foundation
import PoolSizeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServerProcess {
    /// A TCP port free on 127.0.0.1 now, for a server's `{port}`: the kernel's pick for a
    /// socket bound to port 0, closed again before the server starts. Another process could
    /// bind it in between; the kernel hands ports out across its whole ephemeral range, so on
    /// a loopback test or a sweep's machine that is rare enough that a server which then fails
    /// with "address in use" is started once more on a new port, not guarded against here.
    package static func freeLoopbackPort() throws(PoolSizeError) -> Int {
        func failure(_ step: String) -> PoolSizeError {
            .measurementFailed(
                "no free TCP port on 127.0.0.1 for the server (\(step): \(String(cString: strerror(errno))))")
        }
        let fd = Platform.tcpSocket()
        guard fd >= 0 else { throw failure("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw failure("bind") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw failure("getsockname") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
