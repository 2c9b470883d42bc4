import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// The console summary (and summary.txt) of open-loop runs.
@Suite struct OpenLoopConsoleSummaryTests {
    /// An adaptive pool swept beside the fixed one at a rate gets a line of its own: it has no
    /// recommendation (it sizes itself), but what it carried and its p99 are said.
    @Test func anAdaptivePoolIsMentioned() throws {
        var records = OpenLoopFixtures.single.records
        for rep in [1, 2] {
            var trial = OpenLoopFixtures.trial(64, rate: 1000, p99: 21, rep: rep)
            trial.pool = .adaptive
            records.append(trial)
        }
        var info = OpenLoopFixtures.info(rates: [1000], sizes: [8, 16, 17, 20, 24, 64], repetitions: 2)
        info.plan?.pools = [.queuePool, .adaptive]
        let text = OpenLoopFixtures.console(OpenLoopFixtures.run(records, info: info))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("adaptive/") })
        #expect(line.hasPrefix("adaptive/default/none, at most 64 queues, at 1000/s: carried 1000/s, p99 "), "\(line)")
        #expect(line.hasSuffix(", stable, objective met (it sizes itself: no recommendation of its own)"), "\(line)")
        #expect(!OpenLoopFixtures.console(OpenLoopFixtures.single).contains("adaptive"))
    }

    @Test(arguments: ["openloop", "openloop-range"])
    func golden(fixture: String) throws {
        let run = fixture == "openloop" ? OpenLoopFixtures.single : OpenLoopFixtures.range
        try GoldenFile.check(OpenLoopFixtures.console(run), "\(fixture)/summary.txt")
    }
}

/// Two combinations in one open-loop run: the best one's tables, then every combination's answer.
@Suite struct OpenLoopCombinationsConsoleTests {
    static var run: RunData {
        let base = OpenLoopFixtures.single
        // The mutex variant is slower: 20 misses (45 ms), 24 meets (30 ms).
        let mutex = base.records.map { r -> TrialRecord in
            var r = r
            r.primitive = .mutex
            r.integrity = .ok
            if r.poolSize == 20 {
                r.latency = LatencyPercentiles(p50: 27_000, p90: 36_000, p99: 45_000, p999: 49_500, max: 54_000)
            }
            if r.poolSize == 24 {
                r.latency = LatencyPercentiles(p50: 18_000, p90: 24_000, p99: 30_000, p999: 33_000, max: 36_000)
            }
            return r
        }
        return OpenLoopFixtures.run(base.records + mutex, info: base.info!)
    }

    @Test func bestCombinationFirstThenEachAnswer() throws {
        let text = OpenLoopFixtures.console(Self.run)
        #expect(text.contains("\nbest combination queue-pool/default/none:\n"))
        #expect(text.contains("queue-pool/default/none (best)      20  yes"))
        #expect(text.contains("queue-pool/default/mutex            24  yes"))
        #expect(text.contains("recommended queue count: 20  (p99 23.3 ms ≤ 40.0 ms at 1000/s; queueing model 19)"))
        // One table per rate of the best combination only.
        #expect(text.components(separatedBy: "\nat 1000/s").count == 2)
    }

    @Test func reportAndCSVKeepCombinationsApart() throws {
        let analysis = RunAnalysis(Self.run)
        #expect(analysis.openLoop?.tables.count == 2)
        let markdown = ReportTests.markdown(Self.run)
        #expect(markdown.contains("### Verdict per size at 1000/s (queue-pool / default / mutex)"))
        #expect(
            markdown.contains(
                "| queue-pool | default | mutex | **24** | 30.0 ms | p99 ≤ 40.0 ms | met | 19 | latency-slo |"))
        let csv = SummaryCSV.serialize(
            Self.run.records, arrival: Self.run.plan?.load.arrival, lowLoad: OpenLoopFixtures.lowLoad)
        #expect(csv.split(separator: "\n").count == 11)
        #expect(csv.contains("io,queue-pool,default,mutex,20,"))
    }
}

/// The latency-size chart of two combinations: one percentile line each, the model once.
@Suite struct OpenLoopCombinationsChartTests {
    @Test func oneLinePerCombinationTheModelOnce() throws {
        let chart = try #require(OpenLoopSizeChart.chart(RunAnalysis(OpenLoopCombinationsConsoleTests.run)))
        #expect(chart.caption == "Latency vs pool size at 1000/s (open loop), by pool / qos / primitive")
        let data = chart.dataFiles[0].text
        // Block 0 is the recommended combination (none), block 1 the mutex one: p99 worst of two
        // repetitions, the model (same in both), fell behind, stable.
        #expect(data.contains("# index 0: queue-pool / default / none\n8  1180  NaN  1180  0\n"))
        #expect(data.contains("\n20  23.3  "))
        // Two blank lines between blocks: gnuplot's `index` counts blocks only across two.
        #expect(data.contains("\n\n\n# index 1: queue-pool / default / mutex\n"))
        #expect(data.components(separatedBy: "# index 1: queue-pool / default / mutex\n")[1].contains("\n20  45  "))
        let script = chart.script
        #expect(script.contains("dir.'latency-size.dat' index 0 using 1:2 with linespoints"))
        #expect(script.contains("'' index 1 using 1:2 with linespoints"))
        #expect(script.components(separatedBy: "using 1:3").count == 2, "the model is drawn once")
        // Both combinations fell behind at 8 and 16: crosses in each colour, one legend entry.
        #expect(
            script.contains(
                "'' index 0 using 1:4 with points pt 2 ps 2 lw 2 lc rgb '\(GnuplotScript.color(0))' title 'fell behind (a lower bound)'"
            ))
        #expect(
            script.contains(
                "'' index 1 using 1:4 with points pt 2 ps 2 lw 2 lc rgb '\(GnuplotScript.color(1))' notitle"))
        #expect(script.contains("'recommended 20' at 20"))
    }

    @Test
    func rendersWithGnuplot() throws {
        try #require(GnuplotRenderer().executable != nil, "needs gnuplot: scripts/install-gnuplot.sh")
        let chart = try #require(OpenLoopSizeChart.chart(RunAnalysis(OpenLoopCombinationsConsoleTests.run)))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-olcombo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try ReportWriter(runDirectory: dir, plotsDirectory: dir).writeCharts([chart])
        #expect(written.allRendered, "\(written.message ?? "")")
        let size =
            try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(chart.pngFile).path)[.size]
            as? Int ?? 0
        #expect(size > 1000)
    }
}
