import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// The console summary (and summary.txt) of open-loop runs.
@Suite struct OpenLoopConsoleSummaryTests {
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
            if r.poolSize == 20 { r.latency = LatencyPercentiles(p50: 27_000, p90: 36_000, p99: 45_000, p999: 49_500, max: 54_000) }
            if r.poolSize == 24 { r.latency = LatencyPercentiles(p50: 18_000, p90: 24_000, p99: 30_000, p999: 33_000, max: 36_000) }
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
        #expect(markdown.contains("| queue-pool | default | mutex | **24** | 30.0 ms | p99 ≤ 40.0 ms | met | 19 | latency-slo |"))
        let csv = SummaryCSV.serialize(Self.run.records, arrival: Self.run.info?.arrival, lowLoad: OpenLoopFixtures.lowLoad)
        #expect(csv.split(separator: "\n").count == 11)
        #expect(csv.contains("io,queue-pool,default,mutex,20,"))
    }
}
