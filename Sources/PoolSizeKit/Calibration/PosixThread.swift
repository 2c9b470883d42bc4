import CPoolSizeSys
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain pthreads for calibration: Foundation's `Thread` adds its own start-up work, and the
/// costs calibrate reports are those of the kernel and the C library underneath every pool.
enum PosixThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts a thread running `body`; nil when pthread_create fails (the error number is lost
    /// on purpose: callers report the operation as failed either way).
    static func spawn(_ body: @escaping () -> Void) -> poolsize_thread? {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = poolsize_thread()
        let status = poolsize_thread_create(
            &thread,
            { argument in
                Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return nil
        }
        return thread
    }

    /// Joins threads that each signal `finished` as their last act, waiting at most `timeout`
    /// seconds in all. Threads that did not finish in time are detached, never waited for.
    @discardableResult
    static func join(_ threads: [poolsize_thread], finished: DispatchSemaphore, timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + timeout
        var signalled = 0
        while signalled < threads.count, finished.wait(timeout: deadline) == .success { signalled += 1 }
        guard signalled == threads.count else {
            for thread in threads { poolsize_thread_detach(thread) }
            return false
        }
        for thread in threads { poolsize_thread_join(thread) }
        return true
    }

    /// Restricts the calling thread to one CPU; false when the kernel refuses.
    static func pinCurrentThread(toCPU cpu: Int) -> Bool { poolsize_pin_current_thread(Int32(cpu)) == 0 }

    /// The first two CPUs the calling thread may run on (fewer when the mask has fewer).
    static func firstAllowedCPUs() -> [Int] {
        let first = poolsize_next_allowed_cpu(-1)
        guard first >= 0 else { return [] }
        let second = poolsize_next_allowed_cpu(first)
        return second >= 0 ? [Int(first), Int(second)] : [Int(first)]
    }

    /// The stack size a thread created with default attributes gets, in bytes.
    static func defaultStackSize() -> Int? {
        let size = poolsize_default_stack_size()
        return size > 0 ? size : nil
    }
}
