import Foundation
import PoolSizeModel

/// Writes one whole result file, creating its directory; for commands whose output is a single
/// file rather than a run directory (`calibrate`'s CSV).
public enum ResultFile {
    public static func write(_ text: String, to url: URL) throws(PoolSizeError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: ExportManager.reason(error))
        }
    }
}
