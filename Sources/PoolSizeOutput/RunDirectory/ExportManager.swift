import Foundation
import PoolSizeModel

/// Writes a run directory as a sweep runs. `trials.csv` is appended and flushed row by row as
/// trials finish; whole-run files are rewritten each time they change, so a sweep that dies
/// part-way leaves every finished trial on disk (hyperfine's export manager does the same).
public final class ExportManager {
    /// The run directory written.
    public let directory: URL
    private let trials: FileHandle

    /// Creates the run directory and `trials.csv` with its header. Fails with a message naming
    /// the directory when it cannot be created or written.
    public init(directory: URL) throws(PoolSizeError) {
        self.directory = directory
        let fm = FileManager.default
        try AtomicFile.createDirectory(directory)
        let path = directory.appendingPathComponent(RunDirectory.File.trials.rawValue)
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
            throw .cannotWrite(path: directory.appendingPathComponent(RunDirectory.File.trials.rawValue).path, reason: AtomicFile.reason(error))
        }
    }

    /// Writes (or rewrites) a whole file in the run directory atomically.
    public func write(_ text: String, to file: RunDirectory.File) throws(PoolSizeError) {
        try AtomicFile.write(text, to: directory.appendingPathComponent(file.rawValue))
    }
}
