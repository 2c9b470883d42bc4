import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe for a child's stdout and stderr whose reader keeps only the last `capacity` bytes: a
/// command that prints without end (`yes`) costs neither disk (a file in TMPDIR grew by gigabytes)
/// nor memory, and what it printed last is still there to show. A thread drains the pipe until
/// every writer has closed it; reading `text` never waits for that.
package final class OutputTail: @unchecked Sendable {
    // @unchecked: `kept` and `dropped` are only touched under `lock`.
    /// The end the child writes to; close this process's copy once the child has it (`closeWriteEnd`).
    package let writeDescriptor: Int32
    private let lock = NSLock()
    private var kept: [UInt8] = []
    private var dropped = 0
    private let capacity: Int
    private var writeOpen = true
    private let ended = DispatchSemaphore(value: 0)

    /// A pipe keeping the last `capacity` bytes; nil with `errno` set when no pipe can be made.
    package init?(capacity: Int = 16 << 10) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.capacity = capacity
        writeDescriptor = ends[1]
        let reader = ends[0]
        let thread = Thread { [self] in drain(reader) }
        thread.name = "poolsize.output-tail"
        thread.start()
    }

    deinit { closeWriteEnd() }

    /// Closes this process's write end, so the reader sees the end once the child's writers close.
    package func closeWriteEnd() {
        lock.lock()
        defer { lock.unlock() }
        if writeOpen { close(writeDescriptor) }
        writeOpen = false
    }

    private func drain(_ reader: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            lock.lock()
            kept.append(contentsOf: buffer[..<count])
            if kept.count > capacity {
                let excess = kept.count - capacity
                kept.removeFirst(excess)
                dropped += excess
            }
            lock.unlock()
        }
        close(reader)
        ended.signal()
    }

    /// Waits up to `seconds` for every writer to have closed the pipe and the reader to have
    /// kept its last bytes: once the child and its descendants are gone, that is at once.
    package func waitForEnd(seconds: Double) {
        if ended.wait(timeout: .now() + seconds) == .success { ended.signal() }
    }

    /// What was printed last, as UTF-8 text (invalid bytes replaced), after a line saying how
    /// many bytes before it were left out, if any.
    package var text: String {
        lock.lock()
        defer { lock.unlock() }
        let tail = String(decoding: kept, as: UTF8.self)
        return dropped > 0 ? "[… \(dropped) bytes of output before this left out]\n" + tail : tail
    }
}
