import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

@Suite struct RunLoaderTests {
    /// Reading is the inverse of writing, up to the decimals the CSV keeps.
    @Test func trialsCSVRoundTrips() throws {
        let text = TrialsCSV.serialize(ReportFixtures.axes.records)
        let records = try TrialsCSVReader.parse(text, path: "trials.csv")
        #expect(records.count == ReportFixtures.axes.records.count)
        #expect(TrialsCSV.serialize(records) == text)
        #expect(records[1].primitive == .mutex && records[1].criticalSections > 0 && records[1].latency.p99 == 6000)
    }

    @Test func trialsCSVErrorsNameFileLineAndColumn() {
        let text = TrialsCSV.header + TrialsCSV.row(ReportFixtures.single.records[0]).replacingOccurrences(of: "queue-pool", with: "fast-pool")
        #expect(throws: PoolSizeError.invalidInput(path: "r/trials.csv", message: "line 2, column 'pool': 'fast-pool' is not one of queue-pool, thread-pool, global-queue, operation-queue, task-group")) {
            try TrialsCSVReader.parse(text, path: "r/trials.csv")
        }
        #expect(throws: PoolSizeError.invalidInput(path: "t.csv", message: "column 'throughput_per_s' missing from the header; expected the columns in results/README.md")) {
            try TrialsCSVReader.parse("pool,qos,primitive,pool_size\n", path: "t.csv")
        }
    }

    /// A run directory from before recommendation.json had combinations and USL, and without
    /// summary.csv or contention.csv (Tests/Fixtures/run-io, a real 2-core run).
    @Test func olderRunDirectoryLoads() throws {
        let run = try RunLoader.load(ReportFixtures.fixture("run-io"))
        #expect(run.runID == "20261122-053210-io")
        #expect(run.records.count == 16)
        #expect(run.recommendation?.recommendedQueueCount == 24)
        #expect(run.recommendation?.combinations == nil)
        #expect(run.info?.machine?.cores?.effective == 2)
        #expect(run.lowLoad?.tasks == 58)
        #expect(run.contention.isEmpty)
        let analysis = RunAnalysis(run)
        #expect(analysis.curves.count == 1)
        #expect(analysis.primary?.recommendation?.recommendedQueueCount == 24)
    }

    @Test func onlyTrialsCSVIsRequired() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-load-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(throws: PoolSizeError.inputNotFound(path: dir.appendingPathComponent("trials.csv").path, hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")) {
            try RunLoader.load(dir)
        }
        try TrialsCSV.serialize(ReportFixtures.single.records).write(to: dir.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        let run = try RunLoader.load(dir)
        #expect(run.runID == ReportFixtures.runID)
        #expect(run.recommendation == nil && run.info == nil && run.lowLoad == nil)
        // Without the JSON files there is no recommendation, but the charts still come out.
        #expect(ChartSet.charts(RunAnalysis(run)).map(\.name) == ["throughput", "latency", "utilization", "concurrency"])

        try "{\"workload\": \"io\"}".write(to: dir.appendingPathComponent("recommendation.json"), atomically: true, encoding: .utf8)
        #expect(throws: PoolSizeError.invalidInput(path: dir.appendingPathComponent("recommendation.json").path, message: "key 'cores' missing")) {
            try RunLoader.load(dir)
        }
    }

    @Test func combinationsAndUSLFromRecommendationJSON() throws {
        var top = ReportFixtures.recommendation(Combination(pool: .queuePool, qos: .default, primitive: .none))
        top.usl = ReportFixtures.usl
        top.combinations = [top]
        let text = JSONExport.serialize(top)
        let decoded = try JSONDecoder().decode(RecommendationFile.self, from: Data(text.utf8))
        #expect(decoded == top)
        #expect(text.contains("\"sigma_standard_error\" : 0.01"))
    }

    @Test func contentionCSV() throws {
        let shares = try RunLoader.parseContention("qos,share,throughput_per_s,effective_nice\ndefault,0.6000,300.000,0\nbackground,0.4000,200.000,10\n", path: "c.csv")
        #expect(shares == [
            ContentionShare(qos: "default", share: 0.6, throughputPerSecond: 300, effectiveNice: 0),
            ContentionShare(qos: "background", share: 0.4, throughputPerSecond: 200, effectiveNice: 10),
        ])
    }
}
