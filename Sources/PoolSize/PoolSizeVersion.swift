import CPoolSizeSys
import Foundation

/// This build's version, and the commit it was built from: every run records both, and
/// `poolsize --version` prints both. The version is written here and nowhere else:
/// scripts/package.sh reads it from the built binary to name the package.
package enum PoolSizeVersion {
    package static let string = "0.1.0"

    /// The git commit this binary was built from: the one scripts/package.sh stamped into it,
    /// else that of the checkout it was built in when that is still there (`git rev-parse` in
    /// the source directory); "unknown" otherwise.
    package static let commit: String = {
        let stamped = String(cString: poolsize_build_commit())
        if !stamped.isEmpty { return stamped }
        let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "git", "-C", sourceDirectory, "rev-parse", "--short=12", "HEAD",  // flag-spelling: not poolsize's
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
    }()

    /// What `poolsize --version` prints: "0.1.0 (commit 0123456789ab)".
    package static var line: String { "\(string) (commit \(commit))" }
}
