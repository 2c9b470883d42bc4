import Foundation
import Testing

/// `poolsize export`: end to end on the fixture run, and its one-line errors.
struct ExportCommandTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/machines/small").path

    @Test func exportsToStdoutAndToAFile() throws {
        let stdout = try EndToEndTests.run(["export", Self.fixture, "--to", "openmetrics"])
        #expect(stdout.code == 0)
        #expect(stdout.stdout.hasSuffix("# EOF\n"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-export-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let written = try EndToEndTests.run(["export", Self.fixture, "--to", "github-benchmark", "--output", file.path])
        #expect(written.code == 0 && written.stdout.isEmpty)
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
        #expect(entries?.first?["name"] as? String == "io queue-pool/default/none N=1 throughput")
    }

    @Test(arguments: [
        (
            ["export", "/nonexistent/run", "--to", "openmetrics"], Int32(66),
            "error: /nonexistent/run: not found; pass a run directory written by 'poolsize sweep' (results/<run-id>)\n"
        ),
        (
            ["export", "RUN", "--to", "csv"], 64,
            "error: The value 'csv' is invalid for '--to <to>'. Please provide one of 'github-benchmark', 'github-benchmark-smaller' or 'openmetrics'. (see 'poolsize export --help')\n"
        ),
        (["export", "RUN"], 64, "error: Missing expected argument '--to <to>' (see 'poolsize export --help')\n"),
    ])
    func errorsAreOneLine(arguments: [String], code: Int32, message: String) throws {
        let result = try EndToEndTests.run(arguments.map { $0 == "RUN" ? Self.fixture : $0 })
        #expect(result.code == code)
        #expect(result.stderr == message)
    }
}
