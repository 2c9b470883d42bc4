import Foundation
import PoolSizeModel
@testable import PoolSizeObserve
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
                "--latency D with --throughput R/s or --counter CMD would resolve them"))
    }

    /// Issue 31: with `--latency` the table shows W/C and N as the one figure it resolves, as the
    /// guide says, and a λ·D far above the threads says the tasks queue before the pool.
    @Test func latencyResolvesTheTableToOneFigure() throws {
        let resolved = try Self.observation(
            EstimatorSettings(throughputPerSecond: 19.29, latencySeconds: 0.0258, throughputPool: "worker"))
        let worker = try #require(resolved.pools.first { $0.name == "worker" })
        #expect(Array(ObservationTable.summaryCells(worker)[4...5]) == ["3.99", "9.98"], "W/C and N, not ranges")
        let queueing = try Self.observation(
            EstimatorSettings(throughputPerSecond: 19.29, latencySeconds: 0.2, throughputPool: "worker"))
        let pool = try #require(queueing.pools.first { $0.name == "worker" })
        #expect(pool.verdict.kind == .queueing)
        let cores = CoreCount(online: 2, affinity: 2, cgroupQuota: nil)
        #expect(
            ObservationVerdictText.sentence(pool, cores: cores).hasPrefix(
                "queueing: λ·D = 3.86 tasks are in the pool on average (Little's law), but it has 2 threads"))
        #expect(
            ObservationTable.render(queueing).contains(
                "λ·D = 3.86 tasks in the pool on average, more than its 2 threads: tasks queue before the pool"))
    }

    /// Issue 31: a CPython process's pool says what it is, sizes for its lock, shows N with the
    /// cores beside it and calls its contention by name.
    @Test func anInterpreterLockIsNamedInTheTable() throws {
        let recording = try ProcRecording.decode(
            Data(contentsOf: ReportFixtures.fixture("observe/cpython-threads.json")))
        let text = ObservationTable.render(
            ObservationEstimator.estimate(recording.record, settings: EstimatorSettings()))
        #expect(text.contains("lock-bound"))
        #expect(text.contains(" = 1 × 1 × (1 + W/C); with the 2 cores instead "))
        #expect(
            text.contains(
                "  program       CPython 3.11 (python3.11): an interpreter lock runs one thread of Python at a time per "
                    + "process, so N uses parallelism 1"))
        #expect(text.contains("  verdict       interpreter-lock contention: CPython 3.11 runs one thread of Python"))
        #expect(!text.contains("CPU-saturated"))
    }

    /// Issue 31: the backends' verdict says what would pin their range, PostgreSQL's own view
    /// among them.
    @Test func postgresBackendsAreToldWhatWouldPinTheirRange() throws {
        let recording = try ProcRecording.decode(Data(contentsOf: ReportFixtures.fixture("observe/pg-backends.json")))
        let observation = ObservationEstimator.estimate(recording.record, settings: EstimatorSettings())
        let backends = try #require(observation.pools.first)
        let sentence = ObservationVerdictText.sentence(backends, cores: observation.cores)
        #expect(sentence.hasPrefix("undetermined: 4 threads lie inside cores × (1 + W/C) = 2–"))
        #expect(sentence.contains("--latency D with --throughput R/s or --counter CMD would resolve them"))
        #expect(sentence.contains("pg_stat_activity's wait_event_type"))
    }

    /// The first and the last sweep are taken whatever the rate: `--rate 0.1` over a second is
    /// "2 sweeps (only the first and the last)", not "2 sweeps at 2/s".
    @Test func theRateCountsOnlyTheSweepsBetweenTheEnds() {
        let cost = { (sweeps: Int) in
            SamplerCost(
                sweeps: sweeps, threadReads: 0, samplerCPUNanoseconds: 0, processCPUNanoseconds: 0, wallSeconds: 2)
        }
        #expect(ObservationTable.sweeps(cost(2)) == "2 sweeps (only the first and the last)")
        #expect(ObservationTable.sweeps(cost(12)) == "12 sweeps (10 Poisson-timed between the first and the last, 5/s)")
    }

    /// The summary table escapes a pool's name once: `a\nb` on the terminal, not `a\\nb`.
    @Test func aNameIsEscapedOnceInTheTable() throws {
        let recording = try ProcRecording.decode(Data(contentsOf: ReportFixtures.fixture("observe/pg-backends.json")))
        var pools = ObservationEstimator.estimate(recording.record, settings: EstimatorSettings()).pools
        pools[0].name = "a\nb"
        let table = ObservationTable.summary(pools)
        #expect(table.contains("a\\nb "), "\(table)")
        #expect(!table.contains("a\\\\nb"), "\(table)")
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
