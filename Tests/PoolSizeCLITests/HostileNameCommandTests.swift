import Foundation
@testable import PoolSizeCLI
import PoolSizeOutput
import Testing

/// Names are data end to end: a sweep of a spec whose name carries a gnuplot command, and
/// `poolsize report` on a run directory received from someone else whose files carry one, render
/// their charts and reports without running it.
@Suite(.serialized) struct HostileNameCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-hostile-cli-\(UUID())")
    var marker: String { scratch.appendingPathComponent("pwned").path }

    func write(_ text: String, _ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let url = scratch.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func sweepOfASpecNamedWithABackquoteRunsNothing() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let name = "x`touch \(marker)`x '<script>alert(1)</script>"
        let spec = try write("name: \"\(name)\"\ncpu_us: 200\nwait_us: 200\ntrial_ms: 40\n", "hostile.yaml")
        let out = scratch.appendingPathComponent("run"), plots = scratch.appendingPathComponent("plots")
        let result = try EndToEndTests.run([
            "sweep", "--workload", spec.path, "--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--quiet", "--out",
            out.path, "--plots", plots.path,
        ])
        #expect(result.code == 0, "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(!report.contains("<script>"))
        #expect(report.contains("\\<script\\>alert(1)\\</script\\>"))
        if ReportCommandTests.gnuplotInstalled {
            #expect(
                FileManager.default.fileExists(atPath: plots.appendingPathComponent("throughput.png").path),
                "stderr: \(result.stderr)")
        }
    }

    @Test func specNameWithALineBreakIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let spec = try write("name: \"a\\nsystem \\\"touch \(marker)\\\"\"\ncpu_us: 200\n", "newline.yaml")
        let result = try EndToEndTests.run([
            "sweep", "--workload", spec.path, "--sizes", "1", "--repeat", "1", "--out",
            scratch.appendingPathComponent("run").path,
        ])
        #expect(result.code == 65)
        #expect(
            result.stderr
                == "error: workload spec \(spec.path): field 'name': contains a control character (U+000A); write it on one line without tabs or escapes\n"
        )
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// A run directory from a CI artifact: every file that names the workload names it with a
    /// newline and a gnuplot `system` command.
    @Test func reportOnAReceivedRunDirectoryRunsNothing() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let run = scratch.appendingPathComponent("run")
        try FileManager.default.copyItem(at: ReportCommandTests.fixture, to: run)
        let name = "io\nsystem \"touch \(marker)\"\n`touch \(marker)`<script>"
        let json = String(decoding: try JSONEncoder().encode(name), as: UTF8.self)
        let csv = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        func edit(_ file: String, _ from: String, _ to: String) throws {
            let url = run.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(from), "\(file) has no \(from)")
            try text.replacingOccurrences(of: from, with: to).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("trials.csv", "-io,io,", "-io,\(csv),")
        try edit("machine.json", "\"name\" : \"io\"", "\"name\" : \(json)")
        try edit("recommendation.json", "\"workload\" : \"io\"", "\"workload\" : \(json)")
        let plots = scratch.appendingPathComponent("plots")
        let result = try EndToEndTests.run(["report", run.path, "--plots", plots.path], directory: scratch)
        #expect(result.code == 0, "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(!report.contains("<script>"))
        let html = try String(contentsOf: run.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(!html.contains("<script>"))
        if ReportCommandTests.gnuplotInstalled {
            #expect(
                FileManager.default.fileExists(atPath: plots.appendingPathComponent("throughput.png").path),
                "stderr: \(result.stderr)")
        }
    }
}

@Suite struct PlotsDirectoryTests {
    @Test(arguments: [
        ("20261122-053210-io", "plots/20261122-053210-io"),
        ("../../etc", "plots/_.._.._etc"),
        ("..", "plots/_.."),
        ("a/b\nc", "plots/a_b_c"),
        ("", "plots/_"),
    ])
    func runIDsFromFilesNameOneFolderUnderPlots(runID: String, expected: String) {
        let url = ReportWriter.plotsDirectory(nil, runID: runID)
        #expect(url.path == FileManager.default.currentDirectoryPath + "/" + expected)
    }
}
