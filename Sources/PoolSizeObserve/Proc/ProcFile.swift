import Foundation

/// A /proc file kept open and re-read with pread at offset 0: the kernel regenerates the text on
/// every read, and a kept descriptor costs 1–4 µs a read against 16–27 µs for open, read and
/// close (docs/platform.md). Not thread-safe: one sampler owns it.
final class ProcFile {
    let path: String
    private var descriptor: Int32 = -1
    private static let capacity = 8192
    private var buffer = [UInt8](repeating: 0, count: ProcFile.capacity)

    init(path: String) {
        self.path = path
    }

    deinit { release() }

    /// The file's text, or the errno of the failed open or read (ENOENT or ESRCH once the
    /// thread is gone, EACCES when the ptrace check refuses it). Past the descriptors this
    /// process may keep (`DescriptorBudget`), the file is opened, read and closed each time:
    /// slower, but every thread of a target with thousands is still read.
    func read() -> Result<String, ProcError> {
        if descriptor < 0 {
            let kept = DescriptorBudget.shared.take()
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            if opened < 0 {
                let failure = errno
                if kept { DescriptorBudget.shared.give() }
                return .failure(ProcError(errno: failure))
            }
            guard kept else {
                defer { close(opened) }
                return readAt(opened)
            }
            descriptor = opened
        }
        return readAt(descriptor)
    }

    private func readAt(_ descriptor: Int32) -> Result<String, ProcError> {
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, ProcFile.capacity, 0) }
        if count < 0 { return .failure(ProcError(errno: errno)) }
        return .success(String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// Closes the descriptor; the next read opens the file again.
    func release() {
        if descriptor >= 0 {
            close(descriptor)
            DescriptorBudget.shared.give()
        }
        descriptor = -1
    }

    /// Reads a whole file once, however long (socket tables grow with connections), for files
    /// read rarely.
    static func readOnce(_ path: String) -> Result<String, ProcError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { return .failure(ProcError(errno: errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ProcError(errno: errno))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }
}

/// A failed /proc read.
struct ProcError: Error, Equatable {
    let errno: Int32

    /// The file or its thread no longer exists.
    var isGone: Bool { errno == ENOENT || errno == ESRCH }
}
