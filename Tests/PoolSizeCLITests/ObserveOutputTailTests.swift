import Foundation
import Testing

/// `observe -- yes`: the command's output is drained through a pipe that keeps its last 16 KiB,
/// so nothing grows in TMPDIR (a 300 MB TMPDIR filled in 0.13 s) and what is shown at the end
/// is the tail, after a line saying how much was left out.
@Suite(.serialized) struct ObserveOutputTailTests {
    @Test func aCommandThatPrintsWithoutEndCostsNoDisk() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-tail-\(UUID())")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        let result = try EndToEndTests.run(["observe", "--duration", "1s", "--", "yes"], environment: environment)
        #expect(result.code == 0, "\(result.stderr.suffix(500))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        #expect(result.stderr.utf8.count < 20_000)
        let marker = try #require(
            result.stderr.range(of: #"\[… [0-9]+ bytes of output before this left out\]"#, options: .regularExpression))
        // What follows the marker is `yes`'s own tail.
        #expect(result.stderr[marker.upperBound...].hasPrefix("\ny\ny\n"))
    }
}
