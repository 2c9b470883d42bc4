#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library calls whose Swift spelling differs between Glibc (Linux) and Darwin (macOS),
/// each written once behind the one guard below, so no other Swift file of the package needs a
/// per-call `#if` (docs/platform.md, "Where macOS differs"). Glibc imports some C enums as
/// structs (`__rlimit_resource_t`, `__socket_type`) and `DIR` as an opaque pointer; Darwin
/// imports them as plain integers and a typed pointer.
package enum Platform {
    #if canImport(Glibc)
        /// What `opendir` returns.
        package typealias DirectoryStream = OpaquePointer
        static let descriptorResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        static let streamSocket = Int32(SOCK_STREAM.rawValue)
        static let usageOfSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
        /// Counts suspend too, as /proc's thread start times do.
        static let bootClock = CLOCK_BOOTTIME
        /// observe reads threads from /proc, which only Linux has.
        package static let hasProcThreads = true
    #else
        /// What `opendir` returns.
        package typealias DirectoryStream = UnsafeMutablePointer<DIR>
        static let descriptorResource = RLIMIT_NOFILE
        static let streamSocket = SOCK_STREAM
        static let usageOfSelf = RUSAGE_SELF
        /// No boot clock: monotonic, which stops during sleep.
        static let bootClock = CLOCK_MONOTONIC
        /// observe reads threads from /proc, which only Linux has.
        package static let hasProcThreads = false
    #endif

    /// The descriptor limit (soft and hard), or nil when it cannot be read.
    package static func descriptorLimit() -> rlimit? {
        var limit = rlimit()
        return getrlimit(descriptorResource, &limit) == 0 ? limit : nil
    }

    /// Sets the descriptor limit; true when it took.
    package static func setDescriptorLimit(_ limit: rlimit) -> Bool {
        var limit = limit
        return setrlimit(descriptorResource, &limit) == 0
    }

    /// A new TCP socket (IPv4), or -1 with errno set.
    package static func tcpSocket() -> Int32 {
        socket(AF_INET, streamSocket, 0)
    }

    /// CPU of this whole process, user + system, nanoseconds.
    package static func processCPUNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(usageOfSelf, &usage)
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }

    /// Seconds since boot where the platform has such a clock (Linux), else since an arbitrary
    /// start (monotonic).
    package static func bootSeconds() -> Double {
        var time = timespec()
        clock_gettime(bootClock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// read(2), under a name that a type's own `read` method cannot hide.
    package static func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        read(fd, buffer, count)
    }

    /// write(2), under a name that a type's own `write` method cannot hide.
    package static func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        write(fd, buffer, count)
    }
}
