import Foundation

/// The clocks the sampler reads: boot time for sweep instants (stat's thread start times count
/// from boot, suspend included), and its own CPU to measure what observing costs.
enum ObserverClock {
    /// Seconds since boot (CLOCK_BOOTTIME).
    static func bootSeconds() -> Double {
        var time = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_BOOTTIME, &time)
        #else
            clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU of the calling thread, nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// CPU of this whole process, user + system, nanoseconds.
    static func processCPUNanoseconds() -> UInt64 {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
        return ns(usage.ru_utime) + ns(usage.ru_stime)
    }
}
