import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// A renderer that records what it was asked and answers as told; on success it writes
/// placeholder SVG and PNG files where gnuplot would.
final class FakeRenderer: ChartRenderer, @unchecked Sendable {
    var failure: (String) -> ChartRenderFailure?
    private(set) var scripts: [String] = []

    init(failure: @escaping (String) -> ChartRenderFailure? = { _ in nil }) {
        self.failure = failure
    }

    func render(script: URL) throws(ChartRenderFailure) {
        scripts.append(script.lastPathComponent)
        if let failure = failure(script.lastPathComponent) { throw failure }
        let stem = script.deletingPathExtension()
        try? "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".write(
            to: stem.appendingPathExtension("svg"), atomically: true, encoding: .utf8)
        try? Data([0x89, 0x50, 0x4E, 0x47]).write(to: stem.appendingPathExtension("png"))
    }
}

@Suite struct ReportWriterTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-writer-\(UUID())")

    func writer(_ renderer: FakeRenderer) -> ReportWriter {
        ReportWriter(
            runDirectory: root.appendingPathComponent("results/run"),
            plotsDirectory: root.appendingPathComponent("plots/run"), renderer: renderer, currentDirectory: root.path)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    @Test func missingGnuplotStillWritesDataAndScriptsAndSaysWhatToDo() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("results/run"), withIntermediateDirectories: true)
        let renderer = FakeRenderer { _ in .notInstalled }
        let outcome = try writer(renderer).writeReport(RunAnalysis(ReportFixtures.single))

        #expect(renderer.scripts == ["throughput.gp"])  // the first failure stops the rest
        for name in ["throughput", "latency", "utilization", "concurrency"] {
            #expect(exists("plots/run/\(name).gp"))
            #expect(exists("plots/run/\(name).dat"))
            #expect(!exists("plots/run/\(name).svg"))
        }
        #expect(outcome.charts.rendered.isEmpty)
        #expect(outcome.charts.failure == .notInstalled)
        #expect(
            outcome.charts.message
                == "note: charts not rendered: gnuplot not found; install it (apt-get install --no-install-recommends gnuplot-nox) and render later with 'gnuplot plots/run/*.gp' or 'poolsize plot results/run'; the CSV, data and .gp files are written"
        )
        let report = try String(contentsOf: outcome.markdown, encoding: .utf8)
        #expect(report.contains("run `poolsize plot results/run`"))
        #expect(report.contains("![Throughput vs pool size](../../plots/run/throughput.svg)"))
        #expect(exists("results/run/report.html"))
    }

    @Test func renderedChartsAreLinkedAndInlined() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("results/run"), withIntermediateDirectories: true)
        let outcome = try writer(FakeRenderer()).writeReport(RunAnalysis(ReportFixtures.single))
        #expect(outcome.charts.rendered == ["throughput", "latency", "utilization", "concurrency"])
        #expect(outcome.charts.message == nil)
        #expect(exists("plots/run/throughput.png"))
        let report = try String(contentsOf: outcome.markdown, encoding: .utf8)
        #expect(!report.contains("were not rendered"))
        let html = try String(contentsOf: outcome.html, encoding: .utf8)
        #expect(html.components(separatedBy: "data:image/svg+xml;base64,").count == 5)
    }

    @Test func oneFailingScriptDoesNotStopTheOthers() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let renderer = FakeRenderer {
            $0 == "latency.gp"
                ? .failed(script: "/x/latency.gp", message: "\"latency.gp\" line 3: unknown terminal") : nil
        }
        let outcome = try writer(renderer).writeCharts(RunAnalysis(ReportFixtures.single))
        #expect(outcome.charts.count == 4)
        #expect(outcome.rendered == ["throughput", "utilization", "concurrency"])
        #expect(
            outcome.message
                == "warning: gnuplot could not render latency.gp (\"latency.gp\" line 3: unknown terminal); install gnuplot 5.4+ with cairo (apt-get install --no-install-recommends gnuplot-nox) and render later with 'gnuplot plots/run/*.gp' or 'poolsize plot results/run'; the CSV, data and .gp files are written"
        )
    }

    @Test func unwritablePlotsDirectoryIsACannotWriteError() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "a file".write(to: root.appendingPathComponent("plots"), atomically: true, encoding: .utf8)
        #expect(throws: PoolSizeError.self) {
            try writer(FakeRenderer()).writeCharts(RunAnalysis(ReportFixtures.single))
        }
    }

    @Test func relativePaths() {
        let cwd = "/work/repo"
        func rel(_ a: String, _ b: String) -> String {
            RelativePath.from(URL(fileURLWithPath: a), to: URL(fileURLWithPath: b), currentDirectory: cwd)
        }
        #expect(rel("results/20261122-io", "plots/20261122-io") == "../../plots/20261122-io/")
        #expect(rel("/work/repo/results/x", "/work/repo/results/x") == "")
        #expect(rel("/work/repo/results/x", "/work/repo/results/x/plots") == "plots/")
        #expect(rel("/tmp/run", "/work/repo/plots/x") == "../../work/repo/plots/x/")
        #expect(rel("results/./x/../y", "plots/y") == "../../plots/y/")
        #expect(RelativePath.display(URL(fileURLWithPath: "/work/repo/plots/x"), currentDirectory: cwd) == "plots/x")
        #expect(RelativePath.display(URL(fileURLWithPath: "/tmp/plots"), currentDirectory: cwd) == "/tmp/plots")
    }

    @Test func gnuplotErrorLineIsTheOneWithTheMessage() {
        let stderr =
            "\nset terminal nosuch\n             ^\n\"/p/throughput.gp\" line 9: unknown or ambiguous terminal type; type just 'set terminal' for a list\n\n"
        #expect(
            GnuplotRenderer.firstError(stderr, status: 1)
                == "\"/p/throughput.gp\" line 9: unknown or ambiguous terminal type; type just 'set terminal' for a list"
        )
        #expect(GnuplotRenderer.firstError("", status: 1) == "gnuplot exited with status 1")
    }

    @Test func gnuplotIsLookedUpOnPath() throws {
        let renderer = GnuplotRenderer(environment: ["PATH": "/nonexistent"])
        #expect(renderer.executable == nil)
        #expect(throws: ChartRenderFailure.notInstalled) { try renderer.render(script: URL(fileURLWithPath: "/x.gp")) }
    }
}
