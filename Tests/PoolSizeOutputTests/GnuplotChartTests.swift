import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

@Suite struct GnuplotChartTests {
    static let single = RunAnalysis(ReportFixtures.single)
    static let axes = RunAnalysis(ReportFixtures.axes)

    @Test func singleCombinationHasTheFourChartsItsDataSupports() {
        #expect(ChartSet.charts(Self.single).map(\.name) == ["throughput", "latency", "utilization", "concurrency"])
    }

    @Test func variedAxesAddPrimitiveTierAndContentionCharts() {
        #expect(
            ChartSet.charts(Self.axes).map(\.name) == [
                "throughput", "latency", "utilization", "primitives", "qos", "contention", "concurrency",
            ])
    }

    @Test(arguments: ["single", "axes"])
    func goldenScriptsAndData(fixture: String) throws {
        for chart in ChartSet.charts(fixture == "single" ? Self.single : Self.axes) {
            try GoldenFile.check(chart.script, "\(fixture)/\(chart.scriptFile)")
            for data in chart.dataFiles { try GoldenFile.check(data.text, "\(fixture)/\(data.name)") }
        }
    }

    @Test func throughputMarksFormulaKneeRecommendationAndUSL() throws {
        let script = try #require(ThroughputChart.chart(Self.single)).script
        #expect(
            script.contains("set title 'Throughput vs pool size'.\"\\n\".'io workload, 2 cores, 2026-11-22' noenhanced")
        )
        #expect(script.contains("set xlabel 'pool size N (queues)'"))
        #expect(script.contains("'measured knee 8 ≈ formula N = 8.00'"))  // one label: they coincide
        #expect(script.contains("C = 1000.0  # µs on CPU per task"))  // reals: gnuplot divides integers as integers
        #expect(script.contains("'recommended 8' at 8, 2000 point"))
        #expect(script.contains("usl(n) = lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))"))
        #expect(script.contains("using 1:2:4:5 with yerrorlines"))
        // One script renders both formats, beside itself.
        #expect(script.contains("set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12'"))
        #expect(script.contains("set terminal pngcairo size 800,500"))
        #expect(script.contains("set output dir.'throughput.png'\nreplot\n"))
    }

    @Test func noUSLCurveWhenTheFitWasRefused() throws {
        var run = ReportFixtures.single
        var best = try #require(run.recommendation?.best)
        best.editCurve { $0.usl = nil }
        best.editCurve { $0.uslRefusal = "refused" }
        run.recommendation = RecommendationSet(best: best, combinations: [best], verdict: "")
        let script = try #require(ThroughputChart.chart(RunAnalysis(run))).script
        #expect(!script.contains("usl("))
    }

    @Test func noLatencyChartWithoutLatencies() {
        var run = ReportFixtures.single
        run.records = run.records.map {
            var r = $0; r.latency = LatencyPercentiles(); return r
        }
        #expect(LatencyChart.chart(RunAnalysis(run)) == nil)
    }

    @Test func singleRepetitionStillDrawsAThroughputChart() throws {
        var run = ReportFixtures.single
        run.records = run.records.filter { $0.repetition == 1 }
        let chart = try #require(ThroughputChart.chart(RunAnalysis(run)))
        #expect(chart.script.contains("set ylabel 'throughput (tasks/s)'"))
        #expect(chart.dataFiles[0].text.contains("\n1  247.5  0  247.5  247.5  1\n"))
    }

    @Test func userTextIsQuotedForGnuplot() {
        #expect(GnuplotScript.quote("it's") == "'it''s'")
        #expect(GnuplotScript.number(.nan) == "NaN")
        #expect(GnuplotScript.number(2000) == "2000")
        #expect(GnuplotScript.number(0.000299959) == "0.000299959")
        #expect(GnuplotScript.real(2) == "2.0")
        #expect(GnuplotScript.real(0.5) == "0.5")
    }

    @Test func barAxisEndsOnARoundNumber() {
        #expect(BarChart.niceCeiling(2323) == 2500)
        #expect(BarChart.niceCeiling(115) == 200)
        #expect(BarChart.niceCeiling(0.9) == 1)
    }

    /// The golden scripts are valid gnuplot: each renders an SVG and a PNG beside itself, run from
    /// another directory (the ARG0 path handling). gnuplot missing fails the test.
    @Test
    func goldenScriptsRenderWithGnuplot() throws {
        try #require(GnuplotRenderer().executable != nil, "needs gnuplot: scripts/install-gnuplot.sh")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-gp-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for chart in ChartSet.charts(Self.axes) {
            for data in chart.dataFiles {
                try data.text.write(to: dir.appendingPathComponent(data.name), atomically: true, encoding: .utf8)
            }
            let script = dir.appendingPathComponent(chart.scriptFile)
            try chart.script.write(to: script, atomically: true, encoding: .utf8)
            try GnuplotRenderer().render(script: script)
            for output in [chart.svgFile, chart.pngFile] {
                let size =
                    try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(output).path)[.size]
                    as? Int ?? 0
                #expect(size > 1000, "\(output) is \(size) bytes")
            }
        }
    }
}
