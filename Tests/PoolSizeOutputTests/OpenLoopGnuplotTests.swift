import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// The charts of open-loop runs: latency against pool size, and over a range of rates latency
/// against rate per size.
@Suite struct OpenLoopGnuplotTests {
    @Test func chartsOfAnOpenLoop() {
        #expect(ChartSet.charts(RunAnalysis(OpenLoopFixtures.single)).map(\.name) == ["latency-size"])
        #expect(ChartSet.charts(RunAnalysis(OpenLoopFixtures.range)).map(\.name) == ["latency-size", "latency-rate"])
    }

    @Test(arguments: ["openloop", "openloop-range"])
    func goldenScriptsAndData(fixture: String) throws {
        for chart in ChartSet.charts(
            RunAnalysis(fixture == "openloop" ? OpenLoopFixtures.single : OpenLoopFixtures.range))
        {
            try GoldenFile.check(chart.script, "\(fixture)/\(chart.scriptFile)")
            for data in chart.dataFiles { try GoldenFile.check(data.text, "\(fixture)/\(data.name)") }
        }
    }

    @Test func sizeChartMarksObjectiveModelUnstableAndRecommendation() throws {
        let chart = try #require(OpenLoopSizeChart.chart(RunAnalysis(OpenLoopFixtures.single)))
        #expect(chart.script.contains("set logscale y"))
        #expect(chart.script.contains("40.0 with lines dt 4 lw 2 lc rgb '#2ca02c' title 'objective: p99 ≤ 40.0 ms'"))
        #expect(chart.script.contains("'' using 1:4 with linespoints dt 2"))
        #expect(
            chart.script.contains(
                "'' using 1:5 with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'fell behind (a lower bound)'"))
        #expect(chart.script.contains("'recommended 20' at 20"))
        // p50, p99, model, fell behind, stable: 17 keeps up and misses, 16 falls behind (no model figure).
        #expect(chart.dataFiles[0].text.contains("\n16  1194  1990  NaN  1990  0\n"))
        #expect(chart.dataFiles[0].text.contains("\n17  25.8  43  84.804  NaN  1\n"))
    }

    @Test func rateChartDrawsAModelLinePerSize() throws {
        let chart = try #require(OpenLoopRateChart.chart(RunAnalysis(OpenLoopFixtures.range)))
        #expect(chart.dataFiles.map(\.name) == ["latency-rate.dat", "latency-rate-model.dat"])
        // One block per size: 8, 17, 24, 32.
        #expect(chart.dataFiles[0].text.components(separatedBy: "# index ").count == 5)
        #expect(
            chart.dataFiles[0].text.contains(
                "# index 1: N = 17\n500  18  1  NaN\n1000  43  1  NaN\n1500  1300  0  1300\n"))
        // The model's curve for 8 queues: none at all above 500/s (8 × 62.5/s is exactly 500/s), so not drawn.
        #expect(!chart.script.contains("dir.'latency-rate-model.dat' index 0 "))
        #expect(
            chart.script.contains(
                "dir.'latency-rate-model.dat' index 3 using 1:2 with lines dt 2 lw 1.5 lc rgb '#8c564b' notitle"))
        // Nearer its capacity (32 × 62.5/s = 2000/s) the model rises: the 1500/s point is above the 500/s one.
        let block = chart.dataFiles[1].text.components(separatedBy: "# index 3: N = 32\n")[1]
        let values = block.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).compactMap { Double($0) }
        }
        #expect(values.first?.first == 500 && values.last?.first == 1500)
        #expect((values.last?.last ?? 0) > (values.first?.last ?? .infinity))
    }

    @Test func atMostEightSizesKeepingTheRecommendedOnes() {
        let sizes = Array(1...20)
        let chosen = OpenLoopRateChart.chartSizes(sizes, keep: [13, 17])
        #expect(chosen.count == 8)
        #expect(chosen.contains(13) && chosen.contains(17))
        #expect(chosen.first == 1 && chosen.last == 20)
        #expect(OpenLoopRateChart.chartSizes([4, 8], keep: [8]) == [4, 8])
    }

    /// A workload name with quotes, backquotes, `@macro` and a line break stays inside a
    /// single-quoted string or a comment.
    @Test func hostileNamesStayQuoted() throws {
        var run = OpenLoopFixtures.range
        let hostile = "x' `rm -rf /` @evil\nsystem('id') #"
        run.info?.plan?.spec.name = hostile
        for chart in ChartSet.charts(RunAnalysis(run)) {
            let lines = chart.script.split(separator: "\n").map(String.init)
            #expect(!chart.script.contains("`rm"))
            #expect(!lines.contains { $0.hasPrefix("system(") })
            #expect(chart.script.contains("'x'' ˋrm -rf /ˋ @evil system(''id'') #"))
        }
    }

    /// The scripts render with gnuplot (SVG and PNG beside them). gnuplot missing fails the test.
    @Test
    func scriptsRenderWithGnuplot() throws {
        try #require(GnuplotRenderer().executable != nil, "needs gnuplot: scripts/install-gnuplot.sh")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-olgp-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for chart in ChartSet.charts(RunAnalysis(OpenLoopFixtures.range)) {
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
