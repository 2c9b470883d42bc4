import Foundation
import Testing

/// Issue 45, item 2: a server run whose machine.json has no `plan.target` (older, or edited) was
/// read by every reader as poolsize's own pools (the plan's target defaults to in-process): no
/// Server section, no rules of thumb, a resume that would run it in process. Its pool is the
/// server's, which only a server target measures, so each reader now refuses it in one line
/// naming the file.
@Suite(.serialized) struct TargetlessServerRunTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/run-server")

    /// A copy of the server fixture whose machine.json lacks `plan.target`; the caller removes it.
    static func targetlessCopy() throws -> URL {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-targetless-\(UUID())")
        try FileManager.default.copyItem(at: fixture, to: run)
        let file = run.appendingPathComponent("machine.json")
        var info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var plan = try #require(info["plan"] as? [String: Any])
        #expect(plan.removeValue(forKey: "target") != nil)
        info["plan"] = plan
        try JSONSerialization.data(withJSONObject: info, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        return run
    }

    @Test func everyReaderRefusesAServerRunWithoutItsTarget() throws {
        let run = try Self.targetlessCopy()
        defer { try? FileManager.default.removeItem(at: run) }
        let expected =
            "error: \(run.appendingPathComponent("machine.json").path): its plan sizes pool 'server' (the pool inside a server the sweep starts with {size} threads and loads over HTTP) but key 'plan.target' names no such target (missing, or in-process), so the run would be read as pools in poolsize's own process; the file is older or edited: restore 'plan.target' from the run's original machine.json, or rerun the sweep\n"
        for arguments in [
            ["report", run.path, "--plots", run.appendingPathComponent("plots").path],
            ["export", run.path, "--to", "openmetrics"], ["compare", Self.fixture.path, run.path],
            ["plan", "--from", run.path, "--target-rate", "1000/s"],
        ] {
            let result = try EndToEndTests.run(arguments, environment: ["PATH": "/nonexistent"])
            #expect(result.code == 65, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr == expected, "\(arguments[0])")
        }
    }
}
