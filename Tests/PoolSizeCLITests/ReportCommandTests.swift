import Foundation
import Testing

/// `poolsize report` and `poolsize plot` on a real run directory (Tests/Fixtures/run-io), run as
/// the built binary from a scratch working directory. gnuplot is hidden by giving the child a
/// PATH without it, so the missing-gnuplot path is tested on every machine.
@Suite(.serialized) struct ReportCommandTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/run-io")
    static let runID = "20261122-053210-io"
    static let gnuplotInstalled = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/gnuplot") }

    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-report-\(UUID())")
    var run: URL { scratch.appendingPathComponent("results/\(Self.runID)") }
    var plots: URL { scratch.appendingPathComponent("plots/\(Self.runID)") }

    func prepare() throws {
        try FileManager.default.createDirectory(at: run.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: run)
    }

    func poolsize(_ arguments: [String], withGnuplot: Bool) throws -> (code: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        if !withGnuplot { environment["PATH"] = "/nonexistent" }
        return try EndToEndTests.run(arguments, environment: environment, directory: scratch)
    }

    func exists(_ url: URL, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }

    /// A throughput no machine produces (1e20, 1e308/s) in a damaged trials.csv: no trap (the
    /// Mermaid chart's axis converted it to Int), one note line, the report written.
    @Test(arguments: ["1e20", "1e308"]) func anAbsurdThroughputDoesNotCrashTheReport(value: String) throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try prepare()
        let trials = run.appendingPathComponent("trials.csv")
        let text = try String(contentsOf: trials, encoding: .utf8)
        try text.replacingOccurrences(of: ",1016.984,", with: ",\(value),").write(
            to: trials, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: run.appendingPathComponent("recommendation.json"))
        let result = try poolsize(["report", "results/\(Self.runID)"], withGnuplot: false)
        #expect(result.code < 128, "killed by a signal: \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(result.stderr.split(separator: "\n").count <= 1, "\(result.stderr)")
    }

    @Test func reportWithoutGnuplotWritesEverythingElseAndOneLine() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try prepare()
        let result = try poolsize(["report", "results/\(Self.runID)"], withGnuplot: false)
        #expect(result.code == 0, "stderr: \(result.stderr)")
        #expect(
            result.stderr
                == "note: charts not rendered: gnuplot not found; install it (apt-get install --no-install-recommends gnuplot-nox) and render later with 'gnuplot plots/\(Self.runID)/*.gp' or 'poolsize plot results/\(Self.runID)'; the CSV, data and .gp files are written\n"
        )
        #expect(
            result.stdout.split(separator: "\n").last.map(String.init)?.hasSuffix("results/\(Self.runID)/report.md")
                == true)
        for name in ["report.md", "report.html", "trials.csv"] { #expect(exists(run, name)) }
        for name in ["throughput", "utilization", "concurrency"] {
            #expect(exists(plots, "\(name).gp"))
            #expect(exists(plots, "\(name).dat"))
            #expect(!exists(plots, "\(name).svg"))
        }
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            report.hasPrefix(
                "# How many queues? io workload, 2 cores, 2026-11-22\n\n## Recommendation\n\n**24 queues**"))
        #expect(report.contains("![Throughput vs pool size](../../plots/\(Self.runID)/throughput.svg)"))
    }

    @Test func plotWithoutGnuplotFailsWithExit66() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try prepare()
        let result = try poolsize(["plot", "results/\(Self.runID)", "--plots", "charts"], withGnuplot: false)
        #expect(result.code == 66)
        #expect(
            result.stderr
                == "error: gnuplot: not found; install it (apt-get install --no-install-recommends gnuplot-nox) and re-run 'poolsize plot results/\(Self.runID)'; the data and scripts are in charts/ ('gnuplot charts/*.gp' renders them)\n"
        )
        #expect(exists(scratch.appendingPathComponent("charts"), "throughput.gp"))
        #expect(!exists(run, "report.md"))
    }

    @Test func reportOnAMissingDirectoryIsInputNotFound() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let result = try poolsize(["report", "results/nope"], withGnuplot: false)
        #expect(result.code == 66)
        #expect(
            result.stderr.hasPrefix("error: ")
                && result.stderr.contains("results/nope: not found; pass a run directory written by 'poolsize sweep'"))
    }

    @Test
    func reportAndPlotRenderSVGAndPNG() throws {
        try #require(Self.gnuplotInstalled, "needs gnuplot: scripts/install-gnuplot.sh")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try prepare()
        let report = try poolsize(["report", "results/\(Self.runID)"], withGnuplot: true)
        #expect(report.code == 0)
        #expect(report.stderr.isEmpty)
        for name in ["throughput", "utilization", "concurrency"] {
            #expect(exists(plots, "\(name).svg"))
            #expect(exists(plots, "\(name).png"))
        }
        let html = try String(contentsOf: run.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "data:image/svg+xml;base64,").count == 4)

        try FileManager.default.removeItem(at: plots.appendingPathComponent("throughput.png"))
        let plot = try poolsize(["plot", "results/\(Self.runID)"], withGnuplot: true)
        #expect(plot.code == 0)
        #expect(plot.stdout.hasSuffix("plots/\(Self.runID)\n"))
        #expect(exists(plots, "throughput.png"))
    }
}

/// `report` on a run directory whose trials.csv a crash cut mid-line, or someone damaged.
@Suite(.serialized) struct DamagedReportCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-damaged-cli-\(UUID())")

    func prepare(_ edit: (String) -> String) throws -> URL {
        let run = scratch.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ReportCommandTests.fixture, to: run)
        let trials = run.appendingPathComponent("trials.csv")
        try edit(try String(contentsOf: trials, encoding: .utf8)).write(to: trials, atomically: true, encoding: .utf8)
        return run
    }

    @Test func tornLastLineIsLeftOutWithAWarning() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try prepare { String($0.dropLast(30)) }
        let result = try EndToEndTests.run(
            ["report", run.path, "--plots", scratch.appendingPathComponent("plots").path],
            environment: ["PATH": "/nonexistent"], directory: scratch)
        #expect(result.code == 0, "stderr: \(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "warning: \(run.path)/trials.csv: line 17 is cut short (the sweep stopped while writing it) and was left out\n"
            ))
    }

    @Test func aRaggedRowIsExit65NamingTheLine() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try prepare { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[4] = lines[4].split(separator: ",").prefix(12).joined(separator: ",")
            return lines.joined(separator: "\n")
        }
        let result = try EndToEndTests.run(["report", run.path], directory: scratch)
        #expect(result.code == 65)
        #expect(
            result.stderr
                == "error: \(run.path)/trials.csv: line 5 has 12 fields where the header has 59; the file is damaged (an edit, or a write cut short)\n"
        )
    }
}

/// `report` as a user runs it, on run directories with one file randomly damaged: it exits 0
/// with a report, or 65/66 with one line; it never crashes or hangs.
@Suite(.serialized) struct ReportFuzzTests {
    @Test func damagedRunDirectoriesNeverCrashTheReport() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-report-fuzz-\(UUID())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let names = ["trials.csv", "machine.json", "lowload.json", "recommendation.json"]
        for index in 0..<12 {
            let run = scratch.appendingPathComponent("run\(index)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ReportCommandTests.fixture, to: run)
            let file = run.appendingPathComponent(names[index % names.count])
            var bytes = Array(try Data(contentsOf: file))
            for _ in 0..<3 {
                let at = next(bytes.count)
                switch next(3) {
                case 0: bytes[at] = UInt8(next(256))
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + next(40)))
                default: bytes.insert(contentsOf: Array(",\"\n{nan".utf8), at: at)
                }
            }
            try Data(bytes).write(to: file)
            let result = try EndToEndTests.run(
                ["report", run.path, "--plots", scratch.appendingPathComponent("plots\(index)").path],
                environment: ["PATH": "/nonexistent"], directory: scratch)
            #expect([0, 65, 66].contains(result.code), "case \(index): \(result.code) \(result.stderr)")
            for line in result.stderr.split(separator: "\n") {
                #expect(
                    line.hasPrefix("error: ") || line.hasPrefix("warning: ") || line.hasPrefix("note: "),
                    "case \(index): \(line)")
            }
            if result.code != 0 {
                #expect(result.stderr.split(separator: "\n").count == 1, "case \(index): \(result.stderr)")
            }
        }
    }
}
