import Foundation
import PoolSizeModel
import Testing
@testable import PoolSizeObserve

/// Issue 31 on recordings of real servers (Tests/Fixtures/observe/), each made on the project's
/// 2-core VM (kernel 6.18, x86_64) with `observe --record`:
///
/// - `pg-backends.json`: PostgreSQL 15 (postmaster, five helpers) with 4 backends serving
///   `pgbench -c 4 -f sleep.sql` (`SELECT abalance …; SELECT pg_sleep(0.005)`), observed through
///   the postmaster with `--children --duration 1.2s --rate 12 --seed 31`. A backend waits in
///   epoll_wait both for pgbench's next query (a set of its client's socket, the postmaster-death
///   pipe and its latch's signalfd) and inside pg_sleep (the pipe and the signalfd alone); the
///   postmaster waits in pselect6 on its listening sockets.
/// - `cpython-threads.json`: `Tests/Fixtures/observe-targets/gil_server.py --threads 8 --cpu-ms 5`
///   (CPython 3.11, 8 threads each computing 5 ms of Python per request, its load in a process of
///   its own), started by `observe --duration 1.2s --rate 12 --seed 31`; it measured 0.97 cores
///   of CPU itself: the interpreter lock runs one of its threads at a time.
struct RecordedServerTests {
    static func recording(_ name: String) throws -> ProcRecording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/observe/\(name).json")
        return try ProcRecording.decode(Data(contentsOf: url))
    }

    static func postgres(_ settings: EstimatorSettings = EstimatorSettings()) throws -> Observation {
        ObservationEstimator.estimate(try recording("pg-backends").record, settings: settings)
    }

    @Test func theRecordingsKeepEachProcess() throws {
        let recording = try Self.recording("pg-backends")
        #expect(recording.processes?.count == 10, "the postmaster, five helpers, four backends")
        #expect(try ProcRecording.decode(recording.encoded()) == recording)
        let facts = recording.record.processes
        #expect(facts.filter { $0.title.hasPrefix("postgres: postgres bench 127.0.0.1(") }.count == 4)
        #expect(facts.allSatisfy { $0.program?.kind == .postgres })
    }

    /// The backends are a pool of their own: not the postmaster, not the helpers, though every
    /// one of them is a thread named `postgres`.
    @Test func theBackendsArePooledApartFromThePostmasterAndItsHelpers() throws {
        let observation = try Self.postgres()
        let backends = try #require(observation.pools.first)
        #expect(backends.name == "postgres: postgres bench")
        #expect(backends.threads == 4 && backends.processes == 4)
        #expect(
            Set(observation.pools.map(\.name)) == [
                "postgres: postgres bench", "postgres", "postgres: checkpointer", "postgres: background writer",
                "postgres: walwriter", "postgres: autovacuum launcher", "postgres: logical replication launcher",
            ])
        #expect(observation.pools.filter { $0.name != backends.name }.allSatisfy { $0.threads == 1 })
    }

    /// Their waits are neither idle nor IO: the range runs from no wait to all of it, and a
    /// thread count inside that range gets no verdict, CPU-saturated least of all.
    @Test func theBackendsWaitsAreAmbiguousAndGetNoVerdict() throws {
        let backends = try #require(try Self.postgres().pools.first)
        #expect(backends.share(.idle)?.fraction == 0)
        #expect(backends.share(.blockedIO)?.fraction == 0)
        #expect((backends.share(.ambiguous)?.fraction ?? 0) > 0.8)
        let labels = Set(backends.topCalls.map(\.label))
        #expect(labels.contains("epoll_wait pipe+signalfd"), "inside pg_sleep: \(labels)")
        #expect(labels.isSubset(of: ["epoll_wait pipe+signalfd", "epoll_wait client+pipe+signalfd", "waking"]))
        #expect(backends.waitToCPU?.low == 0)
        let size = try #require(backends.size)
        #expect(size.low == 2 && size.high > 20, "N from 2 × (1 + 0) up")
        #expect(backends.verdict == PoolVerdict(kind: .undetermined, reason: .ambiguousWait))
        #expect(backends.program?.kind == .postgres)
    }

    /// The postmaster waits for connections: pselect6 on its listening sockets is idle.
    @Test func thePostmastersSelectOnItsListenersIsIdle() throws {
        let postmaster = try #require(try Self.postgres().pools.first { $0.name == "postgres" })
        #expect(postmaster.topCalls.map(\.label) == ["pselect6 listening"])
        #expect(postmaster.share(.idle)?.fraction ?? 0 > 0.99)
    }

    /// `title:` rules group by the title; a rule on every `postgres:` title puts the helpers
    /// back with the backends, and leaves the postmaster (titled by its command line) out.
    @Test func titleRulesGroupByTheTitle() throws {
        let rules = [try GroupRule(parsing: "title:^postgres: =children")]
        let observation = try Self.postgres(EstimatorSettings(groupRules: rules))
        #expect(observation.pools.first { $0.name == "children" }?.threads == 9)
        #expect(observation.pools.first { $0.name == "postgres" }?.threads == 1)
        // The guide's rule for every backend, whatever its user and database: a client's port in the title.
        let backends = try Self.postgres(
            EstimatorSettings(groupRules: [try GroupRule(parsing: "title:\\(\\d+\\)|\\[local\\]=backends")]))
        #expect(backends.pools.first { $0.name == "backends" }?.threads == 4)
        #expect(backends.pools.count == 7, "the postmaster and the five helpers each apart")
    }

    /// A CPython process: parallelism 1 by its interpreter lock, N with the cores beside it, and
    /// the verdict says the lock, not the CPUs, is what the threads wait for.
    @Test func aCPythonProcessIsSizedForItsInterpreterLock() throws {
        let observation = ObservationEstimator.estimate(
            try Self.recording("cpython-threads").record, settings: EstimatorSettings())
        let python = try #require(observation.pools.first)
        #expect(python.name == "python" && python.threads == 9)
        #expect(python.program == KnownProgram(kind: .cpython, version: "3.11", evidence: "python3.11"))
        #expect(python.parallelism == 1)
        let ratio = try #require(python.waitToCPU), size = try #require(python.size)
        let withCores = try #require(python.sizeWithCores)
        #expect(abs(size.low - (1 + ratio.low)) < 1e-9 && abs(size.high - (1 + ratio.high)) < 1e-9)
        #expect(abs(withCores.high - 2 * (1 + ratio.high)) < 1e-9)
        #expect(PoolVerdict.lockBound(python), "the recording's process held the lock: \(python.cpuCores) cores")
        #expect(python.verdict.kind == .lockContended)
        let futex = python.topCalls.first { $0.label == "futex" }?.fraction ?? 0
        #expect(futex > 0.5, "threads waiting for the lock park in futex: \(python.topCalls)")
    }

    /// `--parallelism` rules over the lock; a free-threaded build has none.
    @Test func parallelismGivenOrNoLockLeavesTheCores() throws {
        var given = try Self.recording("cpython-threads")
        given.header.cores.override = 2
        let explicit = try #require(
            ObservationEstimator.estimate(given.record, settings: EstimatorSettings()).pools.first)
        #expect(explicit.parallelism == nil && explicit.verdict.kind != .lockContended)
        #expect(explicit.program?.kind == .cpython, "still said")
        var free = try Self.recording("cpython-threads")
        free.processes = free.processes?.map { process in
            var changed = process
            changed.executable = "/opt/python/bin/python3.13t"
            changed.sharedObjects = []
            return changed
        }
        let unlocked = try #require(
            ObservationEstimator.estimate(free.record, settings: EstimatorSettings()).pools.first)
        #expect(unlocked.program?.kind == .cpythonFreeThreaded)
        #expect(unlocked.parallelism == nil && unlocked.sizeWithCores == nil)
        #expect(unlocked.verdict.kind != .lockContended)
    }
}
