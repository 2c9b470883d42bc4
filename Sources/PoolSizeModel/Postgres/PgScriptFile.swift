import Foundation

/// A pgbench script file (`sqlFile`), read once from start to end as pgbench's `-f` reads it:
/// a regular file, a FIFO, /dev/stdin or a process substitution alike (a check of the file's
/// size or kind first would refuse the streams, whose size is not known before they end).
package enum PgScriptFile {
    /// Far more than a transaction's script; a stream that never ends (/dev/zero) stops here.
    static let maximumBytes = 1 << 20

    /// The text of the script at `path`; errors name `sqlFile`, the path and the system's reason.
    package static func text(atPath path: String) throws(PoolSizeError) -> String {
        let fix = "give a readable pgbench script"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .invalidParameter(.sqlFile, message: "cannot read \(path) (\(lastReason())); \(fix)")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                // A directory opens, and fails here (EISDIR).
                throw .invalidParameter(.sqlFile, message: "cannot read \(path) (\(lastReason())); \(fix)")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            guard bytes.count <= maximumBytes else {
                throw .invalidParameter(
                    .sqlFile,
                    message:
                        "\(path) holds more than \(maximumBytes >> 20) MiB, more than any transaction's script; \(fix)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidParameter(.sqlFile, message: "\(path) is not UTF-8 text; save it as UTF-8")
        }
        return text
    }

    static func lastReason() -> String { String(cString: strerror(errno)) }
}
