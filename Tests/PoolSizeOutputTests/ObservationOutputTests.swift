import Foundation
import PoolSizeModel
import PoolSizeObserve
import Testing
@testable import PoolSizeOutput

/// `poolsize observe`'s console table and JSON, on the recording of a real process
/// (Tests/Fixtures/observe/c-pool.json; its figures are checked by hand in
/// PoolSizeObserveTests.RecordedObservationTests).
struct ObservationOutputTests {
    static func observation(_ settings: EstimatorSettings = EstimatorSettings()) throws -> Observation {
        let recording = try ProcRecording.decode(Data(contentsOf: ReportFixtures.fixture("observe/c-pool.json")))
        return ObservationEstimator.estimate(recording.record, settings: settings)
    }

    @Test func consoleTable() throws {
        try GoldenFile.check(ObservationTable.render(try Self.observation()), "observe/c-pool.txt")
    }

    @Test func consoleTableWithATaskRate() throws {
        let text = ObservationTable.render(
            try Self.observation(
                EstimatorSettings(throughputPerSecond: 19.29, latencySeconds: 0.0258, throughputPool: "worker")))
        try GoldenFile.check(text, "observe/c-pool-throughput.txt")
        #expect(text.contains("  per task      at 19.3/s: C 5.05 ms"), "0.0974 cores over 19.29 tasks/s")
    }

    @Test func json() throws {
        let text = ObservationJSON.render(try Self.observation())
        try GoldenFile.check(text, "observe/c-pool.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["schema_version"] as? Int == JSONExport.schemaVersion)
        let pools = try #require(object["pools"] as? [[String: Any]])
        let worker = try #require(pools.first { $0["name"] as? String == "worker" })
        #expect((worker["wait_to_cpu"] as? [String: Double])?["low"] != nil)
        #expect((worker["verdict"] as? [String: Any])?["kind"] as? String == "aboutRight")
    }

    @Test func verdictSentencesNameTheirFigures() throws {
        let worker = try #require(try Self.observation().pools.first { $0.name == "worker" })
        var pool = worker
        pool.verdict = PoolVerdict(kind: .cpuSaturated)
        pool.queueToCPU = 0.8
        #expect(
            ObservationVerdictText.sentence(pool, cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil)).hasPrefix(
                "CPU-saturated: the threads wait for a CPU 0.8 s per second they run (Q/C); do not grow the pool"))
        pool.verdict = PoolVerdict(kind: .undetermined, reason: .ambiguousWait)
        #expect(
            ObservationVerdictText.sentence(pool, cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil)).hasSuffix(
                "--throughput R/s with --latency D would resolve them"))
    }

    /// A thread can name itself anything (prctl PR_SET_NAME): escape sequences must not reach
    /// the terminal, and a backslash in a name must not forge an escape.
    @Test func hostileNamesAreShownNotObeyed() {
        #expect(TerminalText.escape("worker\u{1B}[2J") == "worker\\x1b[2J")
        #expect(TerminalText.escape("a\nb\tc\u{7F}") == "a\\nb\\tc\\x7f")
        #expect(TerminalText.escape("C2 CompilerThre") == "C2 CompilerThre")
        #expect(TerminalText.escape("x\\x1b") == "x\\\\x1b")
        #expect(TerminalText.escape("\u{9B}31m") == "\\x9b31m", "the C1 control introducer too")
    }
}
