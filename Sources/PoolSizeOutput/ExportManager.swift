import Foundation
import PoolSizeModel

/// The one place that touches result files. `trials.csv` is appended and flushed row by row as
/// trials finish; whole-run files are rewritten each time they change, so a sweep that dies
/// part-way leaves every finished trial on disk (hyperfine's export manager does the same).
public final class ExportManager {
    public let directory: URL
    private let trials: FileHandle

    /// Creates the run directory and `trials.csv` with its header. Fails with a message naming
    /// the directory when it cannot be created or written.
    public init(directory: URL) throws(PoolSizeError) {
        self.directory = directory
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory.path, reason: Self.reason(error))
        }
        let path = directory.appendingPathComponent("trials.csv")
        guard fm.createFile(atPath: path.path, contents: Data(TrialsCSV.header.utf8)), let handle = FileHandle(forWritingAtPath: path.path) else {
            throw .cannotWrite(path: path.path, reason: "permission denied or read-only file system")
        }
        handle.seekToEndOfFile()
        trials = handle
    }

    deinit { try? trials.close() }

    /// Appends one trial and forces it to disk.
    public func append(_ record: TrialRecord) throws(PoolSizeError) {
        do {
            try trials.write(contentsOf: Data(TrialsCSV.row(record).utf8))
            try trials.synchronize()
        } catch {
            throw .cannotWrite(path: directory.appendingPathComponent("trials.csv").path, reason: Self.reason(error))
        }
    }

    /// Writes (or rewrites) a whole file in the run directory atomically.
    public func write(_ text: String, to name: String) throws(PoolSizeError) {
        let url = directory.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: Self.reason(error))
        }
    }

    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}
