import CPoolSizeSys
#if canImport(Glibc)
import Glibc
#endif

/// Per-thread facts and setup for whichever thread runs a task: pools hand tasks to threads
/// the tool does not create (libdispatch's workers), so setup happens lazily on first use.
enum WorkerThread {
    /// Kernel thread id of the calling thread.
    static func id() -> Int32 { poolsize_gettid() }

    /// The nice value the calling thread runs at. On Linux nice is per thread, and libdispatch
    /// sets it per QoS tier on its workers, so it must be read from inside the worker.
    static func nice() -> Int32 {
        var ok: Int32 = 0
        let value = poolsize_get_thread_nice(poolsize_gettid(), &ok)
        return ok != 0 ? value : 0
    }

    /// Sets the calling thread's nice value; false when the kernel refuses (a negative nice
    /// needs CAP_SYS_NICE). Used by pools built on plain threads to match libdispatch's tiers.
    @discardableResult
    static func setNice(_ value: Int32) -> Bool { poolsize_set_thread_nice(poolsize_gettid(), value) == 0 }

    /// Sets the calling thread's timer slack to 1 ns once. The default 50 µs slack lets the
    /// kernel defer a sleep's wake-up, which would inflate short waits (W) and so W/C.
    static func prepareForMeasurement() {
        if pthread_getspecific(preparedKey) == nil {
            _ = poolsize_set_timer_slack_ns(1)
            pthread_setspecific(preparedKey, UnsafeRawPointer(bitPattern: 1))
        }
    }

    private static let preparedKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
