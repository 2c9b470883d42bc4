import Foundation
import PoolSizeModel
import PoolSizeProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a run directory as a sweep runs. `trials.csv` is appended and flushed row by row as
/// trials finish; whole-run files are rewritten each time they change, so a sweep that dies
/// part-way leaves every finished trial on disk (hyperfine's export manager does the same).
///
/// The directory is locked for the sweep's life (flock(2) on `.lock`, which holds the sweep's
/// PID): a second sweep writing the same directory stops at once instead of mixing its files
/// with the first one's. The kernel drops the lock when the process ends, however it ends.
package final class ExportManager {
    /// How to treat a directory that is not empty (`claim` holds the rule).
    package enum Mode: Sendable {
        /// Refuse a directory that holds anything.
        case create
        /// Replace a run of the same kind; write into a directory of other files, touching none.
        case replace
        /// Keep the trials there and append to them (a torn last line is cut off first).
        case resume
    }

    /// The run directory written.
    package let directory: URL
    /// What opening the directory changed that the user should hear of, one line each: a torn
    /// last row cut off before resuming (its trial runs again).
    package private(set) var notices: [String] = []
    private let trials: FileHandle
    private let lock: Int32

    /// Creates (or, with `.resume`, reopens) the run directory and its `trials.csv`. Errors name
    /// the directory and the fix: exit 73 for a directory the rule refuses (`claim`: a run
    /// there, or files of someone else's; `--force`, `--resume`) or an unwritable place, 75 for
    /// a directory another sweep is writing.
    package init(directory: URL, mode: Mode = .create) throws(PoolSizeError) {
        self.directory = directory
        let path = directory.appendingPathComponent(RunDirectory.File.trials.rawValue)
        let claim = try Self.claim(directory, for: .sweep, mode: mode)
        try AtomicFile.createDirectory(directory)
        lock = try Self.lock(directory)
        do {
            // Checked again under the lock: a sweep may have begun there since.
            let exists = FileManager.default.fileExists(atPath: path.path)
            if exists && mode == .create { _ = try Self.claim(directory, for: .sweep, mode: mode) }
            if exists && mode == .replace && claim == .sameKind {
                // Nothing of the replaced run may outlive it and contradict the new one (a
                // recommendation.json of the old trials, should the new sweep stop early).
                for file in RunDirectory.File.allCases where file != .observation {
                    try? FileManager.default.removeItem(at: directory.appendingPathComponent(file.rawValue))
                }
            }
            if !exists || mode == .replace {
                guard FileManager.default.createFile(atPath: path.path, contents: Data(TrialsCSV.header.utf8)) else {
                    throw PoolSizeError.cannotWrite(
                        path: path.path, reason: "permission denied or read-only file system")
                }
            } else if let line = try Self.cutTornLastLine(path) {
                notices.append(
                    "warning: \(path.path): line \(line) was cut short (the sweep stopped while writing it); it is removed and its trial runs again"
                )
            }
            guard let handle = FileHandle(forWritingAtPath: path.path) else {
                throw PoolSizeError.cannotWrite(path: path.path, reason: "permission denied or read-only file system")
            }
            handle.seekToEndOfFile()
            trials = handle
        } catch let error as PoolSizeError {
            close(lock)
            throw error
        } catch {
            close(lock)
            throw .cannotWrite(path: path.path, reason: AtomicFile.reason(error))
        }
    }

    deinit {
        try? trials.close()
        close(lock)
    }

    /// Appends one trial and forces it to disk.
    package func append(_ record: TrialRecord) throws(PoolSizeError) {
        do {
            try trials.write(contentsOf: Data(TrialsCSV.row(record).utf8))
            try trials.synchronize()
        } catch {
            throw .cannotWrite(
                path: directory.appendingPathComponent(RunDirectory.File.trials.rawValue).path,
                reason: AtomicFile.reason(error))
        }
    }

    /// Writes (or rewrites) a whole file in the run directory atomically.
    package func write(_ text: String, to file: RunDirectory.File) throws(PoolSizeError) {
        try AtomicFile.write(text, to: directory.appendingPathComponent(file.rawValue))
    }

    /// Takes the directory's lock without waiting, and writes this process's PID into it.
    static func lock(_ directory: URL) throws(PoolSizeError) -> Int32 {
        let url = directory.appendingPathComponent(".lock")
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOf: url, encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            close(fd)
            throw .runDirectoryLocked(path: directory.path, pid: holder)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        // Not plain write(): this type's own write(_:to:) hides the C function.
        _ = pid.withCString { Platform.writeDescriptor(fd, $0, strlen($0)) }
        return fd
    }

    /// A crash mid-append leaves a row without its line break: cut it, so appended rows start
    /// on a line of their own. Returns the cut line's number, nil when the file was whole.
    static func cutTornLastLine(_ path: URL) throws -> Int? {
        let data = try Data(contentsOf: path)
        guard let last = data.last, last != UInt8(ascii: "\n") else { return nil }
        let keep = (data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: UInt64(keep))
        try handle.close()
        return data[..<keep].count { $0 == UInt8(ascii: "\n") } + 1
    }
}
