import Foundation
import Testing

/// Golden text kept in `Tests/Fixtures/golden/`. A mismatch fails with both texts; run the tests
/// with `POOLSIZE_UPDATE_GOLDEN=1` to rewrite the files after an intended change, then review
/// the diff (and render the .gp files with gnuplot to look at them).
enum GoldenFile {
    static func check(_ actual: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = ReportFixtures.fixture("golden/" + path)
        if ProcessInfo.processInfo.environment["POOLSIZE_UPDATE_GOLDEN"] != nil {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(
            actual == expected,
            "golden file \(path) differs; rerun with POOLSIZE_UPDATE_GOLDEN=1 if the change is intended",
            sourceLocation: sourceLocation)
    }
}
