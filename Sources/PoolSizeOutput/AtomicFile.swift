import Foundation
import PoolSizeModel

/// The one way a whole output file is written: into a temporary file beside it, then renamed
/// over it, so a reader never sees half a file and a crash never leaves one. Used by the run
/// directory's export manager, the report writer and single-file outputs (`calibrate`'s CSV).
public enum AtomicFile {
    /// Writes `text` to `url`, creating its directory.
    public static func write(_ text: String, to url: URL) throws(PoolSizeError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: reason(error))
        }
    }

    /// Creates `url` and its parents; an error names it.
    public static func createDirectory(_ url: URL) throws(PoolSizeError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: url.path, reason: reason(error))
        }
    }

    /// Creates `directory` if needed and writes and removes a probe file in it, so that a place
    /// that cannot take the output is reported before the work that produces it.
    public static func checkWritable(_ directory: URL, flag: String) throws(PoolSizeError) {
        let probe = directory.appendingPathComponent(".poolsize-write-check-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data().write(to: probe)
            try FileManager.default.removeItem(at: probe)
        } catch {
            throw .invalidOption(flag: flag, message: "cannot write \(directory.path): \(reason(error)); choose a writable directory")
        }
    }

    /// The POSIX reason behind a Foundation file error (`No space left on device`), else its
    /// description.
    public static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        return ns.localizedDescription
    }
}
