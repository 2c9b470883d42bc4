#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library calls whose Swift spelling or existence differs between Glibc (Linux) and
/// Darwin (macOS), each written once, behind the one guard below, so no other Swift file of the
/// package needs a per-call `#if` (docs/platform.md, "Where macOS differs"). Glibc imports some C
/// enums as structs (`__rlimit_resource_t`, `__socket_type`, `__rusage_who_t`) and `DIR` as an
/// opaque pointer; Darwin imports them as plain integers and a typed pointer, and has no boot
/// clock, clock_nanosleep, posix_fadvise or /proc.
package enum Platform {
    #if canImport(Glibc)
        /// What `opendir` returns.
        package typealias DirectoryStream = OpaquePointer
        static let descriptorResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        static let streamSocket = Int32(SOCK_STREAM.rawValue)
        static let usageOfSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
        static let usageOfChildren = __rusage_who_t(RUSAGE_CHILDREN.rawValue)
        /// Counts suspend too, as /proc's thread start times do.
        static let bootClock = CLOCK_BOOTTIME
        /// observe reads threads from /proc, which only Linux has.
        package static let hasProcThreads = true

        /// Sleeps until `deadline` on CLOCK_MONOTONIC (nanoseconds), to the absolute time
        /// (clock_nanosleep, TIMER_ABSTIME): a signal resumes to the same deadline.
        package static func sleep(untilMonotonicNanoseconds deadline: UInt64) {
            var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        }

        /// Asks the kernel to drop its cached pages of a file range, so the next read of it goes
        /// to the device (posix_fadvise POSIX_FADV_DONTNEED).
        package static func dropCachedPages(_ fd: Int32, offset: Int, length: Int) {
            _ = posix_fadvise(fd, off_t(offset), off_t(length), POSIX_FADV_DONTNEED)
        }
    #else
        /// What `opendir` returns.
        package typealias DirectoryStream = UnsafeMutablePointer<DIR>
        static let descriptorResource = RLIMIT_NOFILE
        static let streamSocket = SOCK_STREAM
        static let usageOfSelf = RUSAGE_SELF
        static let usageOfChildren = RUSAGE_CHILDREN
        /// No boot clock: monotonic, which stops during sleep.
        static let bootClock = CLOCK_MONOTONIC
        /// observe reads threads from /proc, which only Linux has.
        package static let hasProcThreads = false

        /// Sleeps until `deadline` on CLOCK_MONOTONIC (nanoseconds): no clock_nanosleep, so the
        /// interval left, again after a signal.
        package static func sleep(untilMonotonicNanoseconds deadline: UInt64) {
            while true {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let current = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
                guard deadline > current else { return }
                let left = deadline - current
                var interval = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
                if nanosleep(&interval, nil) == 0 { return }
            }
        }

        /// No call drops a range's cached pages: the next read of it may come from the cache.
        package static func dropCachedPages(_ fd: Int32, offset: Int, length: Int) {}
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

    /// getrusage(2) of this process, or of its reaped children.
    package static func resourceUsage(ofChildren children: Bool = false) -> rusage {
        var usage = rusage()
        getrusage(children ? usageOfChildren : usageOfSelf, &usage)
        return usage
    }

    /// User + system CPU of a `rusage`, nanoseconds.
    package static func cpuNanoseconds(_ usage: rusage) -> UInt64 {
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }

    /// CPU of this whole process, user + system, nanoseconds.
    package static func processCPUNanoseconds() -> UInt64 { cpuNanoseconds(resourceUsage()) }

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
