import CPoolSizeSys
import Foundation
import PoolSizeProcess

/// Where one command task's stdout and stderr go: named files `task-N.out` and `task-N.err` in
/// the directory that keeps them, or else /dev/null and a file without a name in TMPDIR
/// (`UnlinkedFile`), read back for a failure's message and gone when the task ends, or when
/// the sweep dies, SIGKILL included.
final class TaskOutput {
    /// Why the output could not be set up, e.g. "cannot create a file for its stderr in /tmp (…)".
    struct Failure: Error {
        let reason: String
    }

    private let kept: (out: String, err: String)?
    private let nullDevice: Int32
    private let unnamed: UnlinkedFile?
    /// The directory stderr is written in, named when a full disk lost it.
    let directory: String

    init(task index: UInt64, directory: URL?) throws(Failure) {
        if let directory {
            kept = (
                directory.appendingPathComponent("task-\(index).out").path,
                directory.appendingPathComponent("task-\(index).err").path
            )
            nullDevice = -1
            unnamed = nil
            self.directory = directory.path
            return
        }
        let temporary = FileManager.default.temporaryDirectory
        guard let file = UnlinkedFile(in: temporary) else {
            throw Failure(
                reason: "cannot create a file for its stderr in \(temporary.path) (\(String(cString: strerror(errno))))"
            )
        }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else {
            throw Failure(reason: "cannot open /dev/null for its stdout (\(String(cString: strerror(errno))))")
        }
        kept = nil
        nullDevice = null
        unnamed = file
        self.directory = temporary.path
    }

    deinit { if nullDevice >= 0 { close(nullDevice) } }

    /// Starts `path` in a process group of its own with this output (`poolsize_spawn_group`);
    /// `environment` nil is this process's. Returns 0 and sets `pid`, or the errno.
    func spawn(
        _ path: String, _ argv: [UnsafeMutablePointer<CChar>?], environment: [UnsafeMutablePointer<CChar>?]?,
        pid: inout Int32
    ) -> Int32 {
        var started: Int32 = 0
        let result: Int32
        if let environment {
            result = environment.withUnsafeBufferPointer { spawn(path, argv, $0.baseAddress!, &started) }
        } else {
            result = spawn(path, argv, environ, &started)
        }
        pid = started
        return result
    }

    private func spawn(
        _ path: String, _ argv: [UnsafeMutablePointer<CChar>?], _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>,
        _ pid: inout Int32
    ) -> Int32 {
        if let kept { return poolsize_spawn_group(path, argv, envp, kept.out, kept.err, &pid) }
        return poolsize_spawn_group_fds(path, argv, envp, nullDevice, unnamed!.descriptor, &pid)
    }

    /// What a failed task's stderr says: its last line (bytes that are not UTF-8 shown as
    /// U+FFFD, at most 200 characters, read from the last 64 KiB only), else that it wrote
    /// nothing, or that its file system is full, when that is why nothing could be kept.
    func stderrNote() -> String {
        let descriptor = unnamed?.descriptor ?? kept.map { open($0.err, O_RDONLY | O_CLOEXEC) } ?? -1
        defer { if unnamed == nil && descriptor >= 0 { close(descriptor) } }
        let text = String(decoding: Self.tail(descriptor, bytes: 65_536), as: UTF8.self)
        if let last = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) {
            let line = last.trimmingCharacters(in: .whitespaces)
            return "; its last stderr line: '\(line.count > 200 ? line.prefix(200) + "…" : line)'"
        }
        var space = statvfs()
        if statvfs(directory, &space) == 0, space.f_bavail == 0 {
            return "; what it wrote on stderr was lost: \(directory) is full (\(String(cString: strerror(ENOSPC))))"
        }
        return "; it wrote nothing on stderr"
    }

    /// The last `bytes` of the file open at `descriptor` (read with pread: the offset the child
    /// wrote at stays as it is); empty when it cannot be read.
    static func tail(_ descriptor: Int32, bytes: Int) -> [UInt8] {
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else { return [] }
        let size = Int(info.st_size)
        let start = max(0, size - bytes)
        var buffer = [UInt8](repeating: 0, count: size - start)
        var read = 0
        while read < buffer.count {
            let count = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + read, $0.count - read, off_t(start + read))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            read += count
        }
        return Array(buffer[..<read])
    }
}
