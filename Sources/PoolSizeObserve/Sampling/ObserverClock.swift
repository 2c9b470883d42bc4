import Foundation
import PoolSizeProcess

/// The clocks the sampler reads: boot time for sweep instants (stat's thread start times count
/// from boot, suspend included), and its own CPU to measure what observing costs.
enum ObserverClock {
    /// Seconds since boot (CLOCK_BOOTTIME).
    static func bootSeconds() -> Double { Platform.bootSeconds() }

    /// CPU of the calling thread, nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// CPU of this whole process, user + system, nanoseconds.
    static func processCPUNanoseconds() -> UInt64 { Platform.processCPUNanoseconds() }
}
