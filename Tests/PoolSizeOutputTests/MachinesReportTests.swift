import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// The multi-machine report on hand-made run directories (Tests/Fixtures/machines): `small` has
/// 2 cores and recommends 8, `large` 4 cores and 16, `locked` 4 cores but 4 (a flat curve from 4
/// on); all three measured W/C = 3, so the formula gives 2 × 4 = 8 and 4 × 4 = 16.
@Suite struct MachinesReportTests {
    static func comparison(_ names: [String]) throws -> MachineComparison {
        MachineComparison(
            try names.map { name in
                RunAnalysis(try RunDirectory(ReportFixtures.fixture("machines/" + name)).load())
            })
    }

    @Test func figuresComeFromEachRunDirectory() throws {
        let c = try Self.comparison(["small", "large", "locked"])
        #expect(c.machines.map(\.label) == ["small-vm", "large-vm", "locked-vm"])
        #expect(c.machines.map(\.cores) == [2, 4, 4])
        #expect(c.machines.map(\.waitCPURatio) == [3, 3, 3])
        #expect(c.machines.map(\.formula) == [8, 16, 16])
        #expect(c.machines.map(\.recommended) == [8, 16, 4])
        #expect(c.machines.map(\.throughputAtRecommendation) == [500, 1000, 390])
        #expect(c.workloads == ["io"])
    }

    @Test func theFormulaExplainsMoreCoresButNotALock() throws {
        let verdicts = try Self.comparison(["small", "large", "locked"]).verdicts
        // large: 16 / 8 = 2 against 16 / 8 = 2 → ratio of ratios 1, explained.
        // locked: 4 / 8 = 0.5 against 2 → ratio of ratios 0.25, outside 1 ± 25%.
        #expect(
            verdicts == [
                .reference,
                .explained(recommendationRatio: 2, formulaRatio: 2),
                .unexplained(recommendationRatio: 0.5, formulaRatio: 2),
            ])
    }

    @Test func theToleranceIsInclusive() {
        func machine(_ recommended: Int, _ formula: Double) -> MachineComparison.Machine {
            .init(
                label: "m\(recommended)", runID: "r", workload: "io", cores: 2, waitCPURatio: 1, formula: formula,
                recommended: recommended, points: [])
        }
        // 10 / 8 = 1.25 against a formula ratio of 1: exactly 25% off, explained; 11 / 8 is not.
        let verdicts = MachineComparison(machines: [machine(8, 8), machine(10, 8), machine(11, 8)]).verdicts
        #expect(
            verdicts == [
                .reference, .explained(recommendationRatio: 1.25, formulaRatio: 1),
                .unexplained(recommendationRatio: 1.375, formulaRatio: 1),
            ])
    }

    @Test func aMissingFigureIsNamedNotGuessed() {
        let a = MachineComparison.Machine(
            label: "a", runID: "a", workload: "io", cores: 2, waitCPURatio: 1, formula: 4, recommended: 4, points: [])
        var b = a
        b.label = "b"
        b.recommended = nil
        #expect(MachineComparison(machines: [a, b]).verdicts == [.reference, .unknown(missing: "recommendation")])
    }

    @Test func sameHostTwiceIsToldApartByRunID() throws {
        let c = try Self.comparison(["small", "small"])
        #expect(c.machines.map(\.label) == ["small-vm 20261122-120000-io #1", "small-vm 20261122-120000-io #2"])
    }

    @Test func mixedWorkloadsAreListed() throws {
        #expect(try Self.comparison(["small", "cpu"]).workloads == ["io", "cpu"])
    }

    @Test func chartScriptAndData() throws {
        let chart = try #require(MachinesChart.chart(try Self.comparison(["small", "large", "locked"])))
        try GoldenFile.check(chart.script, "machines/machines.gp")
        try GoldenFile.check(chart.dataFiles.map { "=== \($0.name)\n" + $0.text }.joined(), "machines/machines.dat")
    }

    @Test func markdownReport() throws {
        let comparison = try Self.comparison(["small", "large", "locked"])
        let document = MachinesReportBuilder.build(comparison, chart: MachinesChart.chart(comparison))
        try GoldenFile.check(ReportMarkdown.render(document, chartDirectory: ""), "machines/report.md")
    }

    @Test func mermaidHasOneLinePerMachineOverEverySize() throws {
        let mermaid = try #require(MachinesChart.mermaid(try Self.comparison(["small", "large"])))
        #expect(mermaid.contains("    x-axis \"pool size N (queues)\" [1, 2, 4, 8, 16]\n"))
        #expect(mermaid.contains("    line [100, 200, 380, 500, 505]\n"))
        #expect(mermaid.hasSuffix("    line [100, 200, 400, 780, 1000]"))
        #expect(mermaid.contains("0 --> 1100"))
    }

    @Test func hostileHostNamesStayData() throws {
        var comparison = try Self.comparison(["small", "large"])
        comparison.machines[0].label = "evil' `rm -rf /` **x** <script>\nnext"
        let chart = try #require(MachinesChart.chart(comparison))
        // One single-quoted gnuplot literal, quote doubled, newline gone; no backquote command.
        #expect(chart.script.contains("title 'evil'' "))
        #expect(!chart.script.contains("\nnext"))
        let markdown = ReportMarkdown.render(MachinesReportBuilder.build(comparison, chart: chart), chartDirectory: "")
        #expect(markdown.contains("evil' \\`rm -rf /\\` \\*\\*x\\*\\* \\<script\\> next"))
        #expect(!markdown.contains("<script>"))
    }
}
