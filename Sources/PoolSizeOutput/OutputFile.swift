import Foundation
import PoolSizeModel
import PoolSizeProcess

/// A whole output a command writes where a flag of the command line says (`export --output`),
/// or to standard output. A new file or a regular one is written atomically (`AtomicFile`);
/// anything else, a device (/dev/full), a FIFO or a link (/dev/stdout), is written into as it
/// is, since the atomic rename would replace the node with a file, and a write error would go
/// unseen. Every error names `flag` and the system's reason, exit 73.
package enum OutputFile {
    /// Writes `text` to `path`, which `flag` named.
    package static func write(_ text: String, to path: String, flag: String) throws(PoolSizeError) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG else {
            do {
                try AtomicFile.write(text, to: URL(fileURLWithPath: path))
            } catch {
                // The flag the user gave, not the sweep's run directory or charts.
                guard case let .cannotWrite(_, reason) = error else { throw error }
                let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
                throw .cannotWriteOption(
                    flag: flag, path: path,
                    reason: AtomicFile.fileInTheWay(of: parent).map { "\($0) is a file, not a directory" } ?? reason)
            }
            return
        }
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotWriteOption(flag: flag, path: path, reason: lastReason()) }
        if let reason = writeAll(text, to: fd) {
            close(fd)
            throw .cannotWriteOption(flag: flag, path: path, reason: reason)
        }
        // A file system may report a failed write only when the file is closed (NFS).
        guard close(fd) == 0 else { throw .cannotWriteOption(flag: flag, path: path, reason: lastReason()) }
    }

    /// Writes `text` to standard output; `print` would drop a write error (a full disk, a
    /// closed pipe's reader) and exit 0 with the output cut short.
    package static func writeStandardOutput(_ text: String) throws(PoolSizeError) {
        if let reason = writeAll(text, to: STDOUT_FILENO) {
            throw .cannotWrite(path: "standard output", reason: reason)
        }
    }

    /// Writes all of `text` to `fd`; the system's reason when a write fails.
    static func writeAll(_ text: String, to fd: Int32) -> String? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Platform.writeDescriptor(fd, $0.baseAddress!, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return lastReason()
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }

    static func lastReason() -> String { String(cString: strerror(errno)) }
}
