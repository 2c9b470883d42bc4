import Foundation
import PoolSizeModel

/// The one way a whole output file is written: into a temporary file beside it, then renamed
/// over it, so a reader never sees half a file and a crash never leaves one. Used by the run
/// directory's export manager, the report writer and single-file outputs (`calibrate`'s CSV).
package enum AtomicFile {
    /// Writes `text` to `url`, creating its directory.
    package static func write(_ text: String, to url: URL) throws(PoolSizeError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: reason(error))
        }
    }

    /// Creates `url` and its parents; an error names it.
    package static func createDirectory(_ url: URL) throws(PoolSizeError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(
                path: url.path,
                reason: fileInTheWay(of: url).map { "\($0) is a file, not a directory" } ?? reason(error))
        }
    }

    /// The nearest existing ancestor of `url` (or `url` itself) when it is a file: Foundation
    /// reports that case only as "NSCocoaErrorDomain error 512".
    static func fileInTheWay(of url: URL) -> String? {
        var candidate = url.standardizedFileURL
        while candidate.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? nil : candidate.path
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    /// Creates `directory` if needed and writes and removes a probe file in it, so that a place
    /// that cannot take the output is reported before the work that produces it; an error names
    /// `flag` (exit 73, as an unwritable run directory is).
    package static func checkWritable(_ directory: URL, flag: String) throws(PoolSizeError) {
        do {
            try probeWritable(directory)
        } catch {
            guard case let .cannotWrite(_, reason) = error else { throw error }
            throw .cannotWriteOption(flag: flag, path: directory.path, reason: reason)
        }
    }

    /// The same check for a run directory: a place that cannot take it is `cannotWrite` (exit 73),
    /// as it is when the run's writer finds it so.
    package static func probeWritable(_ directory: URL) throws(PoolSizeError) {
        let probe = directory.appendingPathComponent(".poolsize-write-check-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
        } catch {
            throw .cannotWrite(
                path: directory.path,
                reason: fileInTheWay(of: directory).map { "\($0) is a file, not a directory" } ?? reason(error))
        }
    }

    /// The POSIX reason behind a Foundation file error, else its description.
    package static func reason(_ error: any Error) -> String { PoolSizeError.reason(of: error) }
}
