import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// A real server sweep (Tests/Fixtures/run-server: `poolsize serve --workers {size}` with 2 ms of
/// CPU and an 18 ms wait per request, sizes 4…32 and the rules' 2, 3 and 5, on 2 cores) as the
/// console, the report and the charts render it.
@Suite struct ServerReportTests {
    static func run() throws -> RunData { try RunDirectory(ReportFixtures.fixture("run-server")).load() }

    @Test func thePlanRecordsTheServerWhole() throws {
        let server = try #require(try Self.run().info?.plan?.target.server)
        #expect(
            server
                == ServerSetup(
                    command: "poolsize serve --workers '{size}' --port '{port}' --cpu 2ms --delay 18ms --quiet",
                    url: "http://127.0.0.1:{port}/", connections: 64, readyTimeoutSeconds: 30))
        #expect(try Self.run().records.allSatisfy { $0.pool == .server && $0.driverCPUMicrosecondsPerRequest > 0 })
    }

    @Test func goldenConsole() throws {
        let run = try Self.run()
        let analysis = RunAnalysis(run)
        let text = ConsoleSummary.render(
            analysis, spec: try #require(run.plan?.spec), cores: try #require(run.info?.machine?.cores),
            lowLoad: try #require(run.lowLoad))
        try GoldenFile.check(text, "server/summary.txt")
    }

    @Test func goldenReportAndServerChart() throws {
        let run = try Self.run()
        try GoldenFile.check(ReportTests.markdown(run), "server/report.md")
        let chart = try #require(ChartSet.charts(RunAnalysis(run)).first { $0.name == "server" })
        try GoldenFile.check(chart.script, "server/server.gp")
        for data in chart.dataFiles { try GoldenFile.check(data.text, "server/\(data.name)") }
        #expect(!ChartSet.charts(RunAnalysis(run)).contains { $0.name == "concurrency" })
    }

    /// A low-load C taken from the server's pool is said to be that pool's, beside what all
    /// the server's threads spend, in the console and the report; without a pool (the
    /// fixture as recorded) C is its processes'.
    @Test func theServingPoolIsNamedBesideAllThreadsCPU() throws {
        var run = try Self.run()
        #expect(try ReportTests.markdown(run).contains("), its processes burn C = 2.26 ms of CPU per request"))
        run.lowLoad?.servingPool = "pool-worker"
        run.lowLoad?.processCPUMicrosecondsPerTask = 2_512.4
        let console = ConsoleSummary.render(
            RunAnalysis(run), spec: try #require(run.plan?.spec), cores: try #require(run.info?.machine?.cores),
            lowLoad: try #require(run.lowLoad))
        #expect(console.contains("C 2259 µs of its pool-worker threads (all its threads 2512 µs), W 18352 µs"))
        #expect(
            try ReportTests.markdown(run).contains(
                "the threads of its pool that serves the requests (pool-worker, the threads with the steadily largest CPU; all its threads 2.51 ms) burn C = 2.26 ms of CPU per request"
            ))
    }

    /// A server loaded by a tool (`--load`) that printed no p99 and has no driver: the report
    /// shows – for the p99, the requests in flight and the driver's CPU, and says nothing of a
    /// driver; the fixture as recorded shows its own figures there.
    @Test func aLoadToolsRunShowsNoFigureItDidNotRecord() throws {
        var run = try Self.run()
        let recorded = try ReportTests.markdown(run)
        #expect(recorded.contains("(/proc), the load driver's CPU beside them."))
        var setup = try #require(run.info?.plan?.target.server)
        setup.loadTool = "wrk -t1 -c64 -d1s http://127.0.0.1:{port}/"
        run.info?.plan?.target = .server(setup)
        run.records = run.records.map { record in
            var record = record
            record.latency.p99 = 0
            record.peakConcurrency = 0
            record.driverCPUMicrosecondsPerRequest = 0
            return record
        }
        let text = try ReportTests.markdown(run)
        #expect(
            text.contains(
                "(its own figures), the server ready at `http://127.0.0.1:{port}/`. The figures below are its processes' (/proc).\n"
            ))
        let lines = text.split(separator: "\n")
        let cost = try #require(lines.first { $0.hasPrefix("| 8 |") && $0.contains("MiB") })
        #expect(cost.hasSuffix("| – |"), "\(cost)")
        let measured = try #require(lines.first { $0.hasPrefix("| 8 |") && $0.contains("%") })
        let cells = measured.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells[5] == "–" && cells[8] == "–" && cells[4] != "–", "\(cells)")
    }

    /// The rules' sizes were measured beside the listed ones, and each is said against the
    /// recommendation with its own figures from trials.csv.
    @Test func theRulesOfThumbAreMeasuredAndSaid() throws {
        let analysis = RunAnalysis(try Self.run())
        let rules = analysis.rulesOfThumb
        #expect(rules.map(\.size) == [2, 3, 5])
        let records = try Self.run().records.valid
        for rule in rules {
            let at = records.filter { $0.poolSize == rule.size }.map(\.throughputPerSecond)
            #expect(rule.throughputPerSecond == at.reduce(0, +) / Double(at.count))
        }
        #expect(analysis.serverRows.map(\.size) == Array(Set(records.map(\.poolSize))).sorted())
    }

    /// An open-loop server sweep (Tests/Fixtures/run-server-open: the same server with 1 ms of
    /// CPU and a 9 ms wait per request, 400/s with p99 ≤ 50 ms, sizes 2, 4, 8, 16 and the rules'
    /// 2, 3 and 5 on 2 cores): the console and the report give the verdict per size at the
    /// rate, the server's cost per size, and each rule's verdict in the open loop's terms.
    @Test func goldenOpenLoopConsoleReportAndServerChart() throws {
        let run = try RunDirectory(ReportFixtures.fixture("run-server-open")).load()
        let analysis = RunAnalysis(run)
        let text = ConsoleSummary.render(
            analysis, spec: try #require(run.plan?.spec), cores: try #require(run.info?.machine?.cores),
            lowLoad: try #require(run.lowLoad))
        try GoldenFile.check(text, "server-open/summary.txt")
        try GoldenFile.check(ReportTests.markdown(run), "server-open/report.md")
        let chart = try #require(ChartSet.charts(analysis).first { $0.name == "server" })
        try GoldenFile.check(chart.script, "server-open/server.gp")
        #expect(analysis.rulesOfThumb.isEmpty)
        let rules = try #require(analysis.openLoop.map { analysis.openLoopRulesOfThumb($0) })
        #expect(rules.map(\.size) == [2, 3, 5])
        #expect(rules.map { $0.verdict?.stable } == [false, false, true])
        #expect(rules.allSatisfy { $0.recommendedSize == 5 })
        #expect(analysis.serverRows.map(\.size) == [2, 3, 4, 5, 8, 16])
    }
}
