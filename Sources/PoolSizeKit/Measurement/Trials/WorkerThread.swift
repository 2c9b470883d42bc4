import CPoolSizeSys
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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

    /// The calling thread's facts for trial `generation`, with `prepareForMeasurement` done: one
    /// thread-local lookup per task instead of gettid + getpriority syscalls. The id never
    /// changes; nice is read again the first time the thread runs a task of a new trial, so a
    /// tier set between trials is seen, while a tier change in mid-trial is not; the last task's
    /// clock readings are cleared then too. The same object each time on one thread.
    static func facts(generation: UInt64) -> Facts {
        if let raw = pthread_getspecific(factsKey) {
            let facts = Unmanaged<Facts>.fromOpaque(raw).takeUnretainedValue()
            if facts.generation != generation {
                facts.generation = generation
                facts.nice = nice()
                facts.lastEnded = 0
                facts.lastCPU = 0
            }
            return facts
        }
        prepareForMeasurement()
        let facts = Facts(generation: generation, id: id(), nice: nice())
        pthread_setspecific(factsKey, Unmanaged.passRetained(facts).toOpaque())
        return facts
    }

    /// A new trial generation for `facts(generation:)`; never 0.
    static func nextGeneration() -> UInt64 { generations.wrappingAdd(1, ordering: .relaxed).newValue }

    private static let generations = Atomic<UInt64>(0)

    /// One thread's cached facts, owned by that thread's key (released when it exits), and only
    /// ever touched by that thread.
    final class Facts {
        var generation: UInt64
        let id: Int32
        var nice: Int32
        /// The wall clock at the end of this thread's last task in this generation, 0 before its
        /// first; and the thread's CPU clock read just before it.
        var lastEnded: UInt64 = 0
        var lastCPU: UInt64 = 0
        init(generation: UInt64, id: Int32, nice: Int32) {
            self.generation = generation
            self.id = id
            self.nice = nice
        }
    }

    private static let factsKey = ThreadObjectKey.make()

    private static let preparedKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
