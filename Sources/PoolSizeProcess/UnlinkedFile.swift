import CPoolSizeSys
import Foundation

/// A file without a name, for a child's stdout or stderr: the child writes to it, this process
/// reads it back, and it is gone when the last descriptor closes, however either process ends,
/// SIGKILL included (a named file in TMPDIR would be left there). A file, not a pipe: reading it
/// never waits for a grandchild that still holds the write end.
package final class UnlinkedFile: @unchecked Sendable {
    /// The open descriptor (read and write, close-on-exec).
    package let descriptor: Int32

    /// A new empty file in `directory` (TMPDIR by default); nil with `errno` set when none can
    /// be made there.
    package init?(in directory: URL = FileManager.default.temporaryDirectory) {
        let descriptor = poolsize_unlinked_file(directory.path)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The most of a file `text` reads back: a tool that prints without end (a load tool's
    /// progress, 200 MB of it) costs disk, never memory; its summary is at the end.
    package static let readLimit = 1 << 20

    /// The bytes written before the last `readLimit`, left unread by `text`.
    package var skippedBytes: Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        return max(0, Int(status.st_size) - Self.readLimit)
    }

    /// What was written to it so far, as UTF-8 text (invalid bytes replaced): the last
    /// `readLimit` bytes, from the first line that starts within them when earlier bytes were
    /// left unread.
    package var text: String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let skipped = skippedBytes
        var offset = off_t(skipped)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
            offset += off_t(count)
        }
        if skipped > 0, let newline = data.firstIndex(of: UInt8(ascii: "\n")) {
            data = data[data.index(after: newline)...]
        }
        return String(decoding: data, as: UTF8.self)
    }
}
