import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// A real sweep of a load tool alone (Tests/Fixtures/run-load-tool: `pgbench -n -c {size} -j 2
/// -T 1 -S` against a scripts/pg-cluster.sh PostgreSQL, sizes 1, 2, 4 and 8, two repetitions,
/// on 2 cores) as the console, the report and the charts render it: the measured knee alone, no
/// W/C, no formula, no CPU, thread or concurrency figure, and why.
@Suite struct LoadToolReportTests {
    static func run() throws -> RunData { try RunDirectory(ReportFixtures.fixture("run-load-tool")).load() }

    @Test func thePlanRecordsTheToolWhole() throws {
        let target = try #require(try Self.run().info?.plan?.target)
        guard case let .loadTool(setup) = target else {
            Issue.record("target \(target)")
            return
        }
        #expect(setup.parse == ["pgbench"])
        #expect(setup.command.hasPrefix("pgbench -n -c '{size}' -j 2 -T 1 -S "))
        #expect(try Self.run().records.allSatisfy { $0.pool == .loadTool && $0.invalidReason == nil })
        #expect(try Self.run().lowLoad?.isMeasured == false)
    }

    @Test func goldenConsole() throws {
        let run = try Self.run()
        let text = ConsoleSummary.render(
            RunAnalysis(run), spec: try #require(run.plan?.spec), cores: try #require(run.info?.machine?.cores),
            lowLoad: try #require(run.lowLoad))
        try GoldenFile.check(text, "load-tool/summary.txt")
        #expect(!text.contains("formula 2"))
        #expect(!text.contains("util"))
    }

    @Test func goldenReportWithoutTheFormulaOrCPU() throws {
        let run = try Self.run()
        let report = ReportTests.markdown(run)
        try GoldenFile.check(report, "load-tool/report.md")
        for absent in ["CPU util", "W/C = **", "The formula N =", "Formula and measurement disagree", "dashed grey"] {
            #expect(!report.contains(absent), "\(absent)")
        }
        let charts = ChartSet.charts(RunAnalysis(run))
        #expect(charts.map(\.name) == ["throughput"])
        let script = try #require(charts.first).script
        #expect(!script.contains("formula"), "no formula curve or marker without W/C")
        #expect(script.contains("measured knee 2"))
    }
}
