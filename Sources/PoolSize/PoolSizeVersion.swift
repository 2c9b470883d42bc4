import Foundation

/// This build's version, and the commit it was built from: every run records both.
package enum PoolSizeVersion {
    package static let string = "0.1.0"

    /// The git commit of the checkout this binary was built from, when that checkout is still
    /// there (`git rev-parse` in the source directory); "unknown" otherwise.
    package static let commit: String = {
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
}
