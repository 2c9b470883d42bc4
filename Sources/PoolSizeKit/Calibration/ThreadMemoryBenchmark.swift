import CPoolSizeSys
import Dispatch
import PoolSizeModel
import PoolSizeProcess
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an idle thread costs in memory: the resident memory it adds to the process (its touched
/// stack pages, TLS and guard bookkeeping) and the kernel stack it adds system-wide.
///
/// Each round adds a batch of threads that block on a semaphore and keeps every earlier batch
/// alive, so no round can reuse the stacks glibc caches after a join (which would show as zero).
/// `KernelStack` in /proc/meminfo is system-wide: another process starting threads at the same
/// moment adds noise, which the median over rounds absorbs.
final class ThreadMemoryBenchmark {
    private var threads: [poolsize_thread] = []
    private let started = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Adds `count` blocked threads; bytes of RSS and of kernel stack (nil when /proc/meminfo has
    /// no `KernelStack`) each added, per thread.
    func addThreads(_ count: Int) throws(PoolSizeError) -> (rss: Double, kernelStack: Double?) {
        let rss0 = Self.residentBytes(), kernel0 = Self.kernelStackBytes()
        for _ in 0..<count {
            guard
                let thread = PosixThread.spawn({ [started, release, finished] in
                    started.signal()
                    // The backstop: a thread the tool forgot to release still ends.
                    _ = release.wait(timeout: .now() + 60)
                    finished.signal()
                })
            else {
                throw .measurementFailed(
                    "pthread_create failed after \(threads.count) idle threads; raise the thread limit (ulimit -u)")
            }
            threads.append(thread)
        }
        for _ in 0..<count where started.wait(timeout: .now() + 5) == .timedOut {
            throw .measurementFailed("new threads did not start within 5 s; the machine is overloaded")
        }
        let rss1 = Self.residentBytes(), kernel1 = Self.kernelStackBytes()
        let kernel: Double? = if let kernel0, let kernel1 { Double(kernel1 - kernel0) / Double(count) } else { nil }
        return (Double(rss1 - rss0) / Double(count), kernel)
    }

    /// Releases and joins every thread added so far (bounded by a timeout).
    @discardableResult
    func releaseAll() -> Bool {
        for _ in threads { release.signal() }
        defer { threads = [] }
        return PosixThread.join(threads, finished: finished, timeout: 5)
    }

    deinit { releaseAll() }

    /// Resident set size of this process (/proc/self/statm, second field, in pages).
    static func residentBytes() -> Int {
        guard let pages = read("/proc/self/statm").flatMap(ProcText.residentPages) else { return 0 }
        return Int(pages) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `KernelStack` of /proc/meminfo, in bytes.
    static func kernelStackBytes() -> Int? {
        guard let text = read("/proc/meminfo") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("KernelStack:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1_024 }
        }
        return nil
    }

    /// Reads a small /proc file with plain syscalls into a fixed buffer, so the reading itself
    /// does not grow the heap it is measuring.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let capacity = 16_384
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var length = 0
        while length < capacity {
            // Not plain read(): this method's own name hides the C function.
            let n = Platform.readDescriptor(fd, buffer + length, capacity - length)
            if n <= 0 { break }
            length += n
        }
        return String(decoding: UnsafeBufferPointer(start: buffer, count: length), as: UTF8.self)
    }
}
