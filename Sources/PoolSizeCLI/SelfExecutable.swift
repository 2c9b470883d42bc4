import Foundation

/// Where the running poolsize binary is, so the deadlock probe can re-run it. Inside the test
/// runner (`…PackageTests.xctest`) it is the `poolsize` built beside it.
enum SelfExecutable {
    static func poolsize() -> URL? {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath
        guard let path else { return nil }
        let url = URL(fileURLWithPath: path)
        if url.lastPathComponent.hasSuffix(".xctest") || url.lastPathComponent.contains("PackageTests") {
            let sibling = url.deletingLastPathComponent().appendingPathComponent("poolsize")
            return FileManager.default.isExecutableFile(atPath: sibling.path) ? sibling : nil
        }
        return url
    }
}
