import Foundation
import PoolSizeModel
import PoolSizeObserve
import PoolSizeStats
@testable import PoolSizeOutput
import Testing

@Suite struct RunDirectoryTests {
    /// Reading is the inverse of writing, up to the decimals the CSV keeps.
    @Test func trialsCSVRoundTrips() throws {
        let text = TrialsCSV.serialize(ReportFixtures.axes.records)
        let records = try TrialsCSV.parse(text, path: "trials.csv")
        #expect(records.count == ReportFixtures.axes.records.count)
        #expect(TrialsCSV.serialize(records) == text)
        #expect(records[1].primitive == .mutex && records[1].criticalSections > 0 && records[1].latency.p99 == 6000)
    }

    @Test func trialsCSVErrorsNameFileLineAndColumn() {
        let text =
            TrialsCSV.header
            + TrialsCSV.row(ReportFixtures.single.records[0]).replacingOccurrences(of: "queue-pool", with: "fast-pool")
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "r/trials.csv",
                message:
                    "line 2, column 'pool': 'fast-pool' is not one of queue-pool, thread-pool, global-queue, operation-queue, task-group, adaptive, server, load-tool"
            )
        ) {
            try TrialsCSV.parse(text, path: "r/trials.csv")
        }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "t.csv",
                message: "column 'throughput_per_s' missing from the header; expected the columns in results/README.md")
        ) {
            try TrialsCSV.parse(
                TrialsCSV.columnNames.filter { $0 != "throughput_per_s" }.joined(separator: ",") + "\n", path: "t.csv")
        }
    }

    /// A real 2-core run (Tests/Fixtures/run-io) without summary.csv or contention.csv: one
    /// combination, no USL fit, its files in the form the current version writes.
    @Test func realRunDirectoryLoads() throws {
        let run = try RunDirectory(ReportFixtures.fixture("run-io")).load()
        #expect(run.runID == "20261122-053210-io")
        #expect(run.records.count == 16)
        let recommendation = try #require(run.recommendation)
        #expect(recommendation.best.recommendedQueueCount == 24)
        #expect(recommendation.combinations == [recommendation.best])
        #expect(recommendation.best.combination == Combination(pool: .queuePool, qos: .default, primitive: .none))
        #expect(recommendation.best.integrity == .notApplicable && recommendation.best.usl == nil)
        #expect(recommendation.best.maxConcurrencyReached == 64)
        #expect(run.info?.machine?.cores.effective == 2)
        #expect(run.plan?.spec.waitCPURatio == 15)
        #expect(run.plan?.pools == [.queuePool] && run.plan?.sizes == .explicit([1, 4, 8, 16, 24, 32, 40, 64]))
        #expect(run.lowLoad?.tasks == 58)
        #expect(run.contention.isEmpty)
        let analysis = RunAnalysis(run)
        #expect(analysis.curves.count == 1)
        #expect(analysis.primary?.recommendation?.recommendedQueueCount == 24)
    }

    /// Nothing was released before the files were snake_cased and complete: a file with the
    /// camelCase keys (`runID`, `waitCPURatio`) or without the keys the writer always writes is
    /// refused, on one line naming the file and the key, not read with defaults.
    @Test(arguments: [
        (
            "machine.json",
            #"{"schema_version": 1, "runID": "r0", "seed": 3, "machine": {"cores": {"online": 4, "affinity": 4, "effective": 4}}}"#,
            "key 'plan' missing"
        ),
        (
            "recommendation.json",
            #"{"schema_version": 1, "workload": "io", "cores": 2, "waitCPURatio": 15, "targetUtilization": 1}"#,
            "key 'wait_cpu_ratio' missing"
        ),
        // A file of one combination, without `combinations` and the figures added with them.
        (
            "recommendation.json",
            #"{"schema_version": 1, "workload": "io", "cores": 2, "wait_cpu_ratio": 15, "cpu_us_per_task": 1000, "wait_us_per_task": 15000, "target_utilization": 1, "formula_queue_count_exact": 32, "formula_queue_count_stderr": 0, "formula_queue_count": 32, "knee_pool_size": 31, "knee_throughput_per_s": 1900, "peak_pool_size": 31, "peak_throughput_per_s": 1990, "tolerance": 0.05, "recommended_queue_count": 31, "basis": "knee", "reason": "r"}"#,
            "key 'pool' missing"
        ),
        (
            "lowload.json",
            #"{"schema_version": 1, "cpu_microseconds_per_task": 1000, "wait_microseconds_per_task": 3000}"#,
            "key 'tasks' missing"
        ),
        // The effective core count is derived: a file that records another is damaged.
        (
            "machine.json",
            #"{"schema_version": 1, "run_id": "r0", "seed": 3, "machine": {"cores": {"online": 4, "affinity": 4, "cgroup_quota": 2, "effective": 4}, "cpu_model": "X", "kernel": "k", "swift_version": "6", "effective_nice_by_tier": {}, "hostname": "h"}}"#,
            "key 'machine.cores.effective' has an unusable value"
        ),
        (
            "machine.json",
            #"{"schema_version": 1, "run_id": "r0", "seed": 3, "machine": {"cores": {"online": 4, "affinity": 4, "effective": 4}}}"#,
            "key 'machine.cpu_model' missing"
        ),
    ])
    func filesOfAnotherFormAreRefused(file: String, text: String, fault: String) {
        let expected = "error: run/\(file): \(fault); expected the schema in results/README.md"
        do {
            switch file {
            case "machine.json": _ = try RunDirectoryJSON.decode(RunInfo.self, from: text, path: "run/" + file)
            case "lowload.json": _ = try RunDirectoryJSON.decode(LowLoadEstimate.self, from: text, path: "run/" + file)
            default: _ = try RunDirectoryJSON.decode(RecommendationSet.self, from: text, path: "run/" + file)
            }
            Issue.record("read \(file) of another form")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test(arguments: [
        ("waitCPURatio", "wait_cpu_ratio"), ("runID", "run_id"), ("cpuUsPerTask", "cpu_us_per_task"),
        ("waitCpuRatioCi95Lower", "wait_cpu_ratio_ci95_lower"), ("confidenceInterval95", "confidence_interval95"),
        ("already_snake", "already_snake"), ("user-initiated", "user-initiated"), ("rSquared", "r_squared"),
    ])
    func keysSnakeCaseAsTheEncoderDoes(key: String, snake: String) throws {
        #expect(RunDirectoryJSON.snake(key) == snake)
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct Probe: Encodable {
            let value: Int; let key: String
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(value, forKey: Key(stringValue: key))
            }
        }
        #expect(JSONExport.serialize(Probe(value: 1, key: key)).contains("\"\(snake)\""))
    }

    @Test func onlyTrialsCSVIsRequired() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-load-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: dir.appendingPathComponent("trials.csv").path,
                hint: "a run directory holds trials.csv; pass one written by 'poolsize sweep'")
        ) {
            try RunDirectory(dir).load()
        }
        try TrialsCSV.serialize(ReportFixtures.single.records).write(
            to: dir.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        let run = try RunDirectory(dir).load()
        #expect(run.runID == ReportFixtures.runID)
        #expect(run.recommendation == nil && run.info == nil && run.lowLoad == nil)
        // Without the JSON files there is no recommendation, but the charts still come out.
        #expect(
            ChartSet.charts(RunAnalysis(run)).map(\.name) == ["throughput", "latency", "utilization", "concurrency"])

        try "{\"schema_version\": 1, \"workload\": \"io\"}".write(
            to: dir.appendingPathComponent("recommendation.json"), atomically: true, encoding: .utf8)
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.appendingPathComponent("recommendation.json").path,
                message: "key 'cores' missing; expected the schema in results/README.md")
        ) {
            try RunDirectory(dir).load()
        }
    }

    /// The sweep's recommendation is written and read as is: nothing is lost on the way.
    @Test func recommendationRoundTripsWhole() throws {
        let set = try #require(ReportFixtures.axes.recommendation)
        var best = set.best
        best.editCurve { $0.usl = ReportFixtures.usl }
        best.queueingModelKnee = 9
        best.integrity = .ok
        best.maxConcurrencyReached = 12
        let written = RecommendationSet(
            best: best, combinations: [best] + set.combinations.dropFirst(), verdict: set.verdict)
        let text = JSONExport.serialize(written)
        #expect(try RunDirectoryJSON.decode(RecommendationSet.self, from: text, path: "r.json") == written)
        for key in [
            "\"sigma_standard_error\" : 0.01", "\"wait_cpu_ratio_ci95_lower\" : 2.9", "\"cpu_us_per_task\" : 1000",
            "\"peak_throughput_per_s\" : 2020", "\"formula_queue_count_stderr\" : 0.2", "\"queueing_model_knee\" : 9",
        ] {
            #expect(text.contains(key), "\(key)")
        }
    }

    @Test func runInfoRoundTripsWhole() throws {
        var info = ReportFixtures.info
        info.plan?.pools = [.queuePool, .threadPool]
        info.plan?.tiers = [.utility]
        info.plan?.primitives = [.mutex]
        info.plan?.targetUtilization = 0.8
        info.plan?.load = .open(ArrivalPlan(rates: [500, 1000], latencySLOMicroseconds: 40_000))
        info.poolsizeCommit = "abc"
        info.sizes = [1, 2, 4]
        info.server = "threads=4 cpu_us=100 delay_us=1000"
        info.gridTrials = 48
        let text = JSONExport.serialize(info)
        #expect(text.contains("\"run_id\" : \"\(ReportFixtures.runID)\""))
        #expect(try RunDirectoryJSON.decode(RunInfo.self, from: text, path: "machine.json") == info)
        // The plan is recorded once: no copy of its fields beside it.
        let keys = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        ).keys.sorted()
        #expect(
            keys == [
                "command_line", "grid_trials", "machine", "plan", "poolsize_commit", "poolsize_version",
                "schema_version", "server", "sizes",
            ])
        // An observation records its run id and seed, and no plan.
        let observation = RunInfo(
            .observation(runID: "20261124-000132-observe-x", seed: 3), poolsizeVersion: "0.1.0",
            machine: ReportFixtures.info.machine)
        let observed = JSONExport.serialize(observation)
        #expect(!observed.contains("\"plan\"") && observed.contains("\"seed\" : 3"))
        #expect(try RunDirectoryJSON.decode(RunInfo.self, from: observed, path: "machine.json") == observation)
    }

    /// Every fixture's JSON files are in the form `sweep` and `observe` write: read and written
    /// again, each is the same text (a sweep's machine.json holds its plan whole, an
    /// observation's its run id and seed; recommendation.json, lowload.json and observation.json
    /// every key).
    @Test(arguments: [
        "run-io", "machines/cpu", "machines/large", "machines/locked", "machines/small", "extremes/closed",
        "extremes/open", "extremes/observation",
    ])
    func fixturesHoldTheirFilesAsWritten(fixture: String) throws {
        let directory = ReportFixtures.fixture(fixture)
        func check<T: Codable>(_ type: T.Type, _ name: String) throws -> T? {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            let text = try String(contentsOf: url, encoding: .utf8)
            let value = try RunDirectoryJSON.decode(type, from: text, path: url.path)
            #expect(JSONExport.serialize(value) == text, "\(fixture)/\(name)")
            return value
        }
        let info = try #require(try check(RunInfo.self, "machine.json"))
        #expect((info.plan == nil) == (fixture == "extremes/observation"))
        let recommendation = try check(RecommendationSet.self, "recommendation.json")
        let lowLoad = try check(LowLoadEstimate.self, "lowload.json")
        #expect((recommendation == nil) == (fixture == "extremes/observation"))
        #expect((lowLoad == nil) == (fixture == "extremes/observation"))
        let observation = try check(Observation.self, "observation.json")
        #expect((observation == nil) == (fixture != "extremes/observation"))
        let trials = directory.appendingPathComponent("trials.csv")
        if FileManager.default.fileExists(atPath: trials.path) {
            let text = try String(contentsOf: trials, encoding: .utf8)
            #expect(TrialsCSV.serialize(try TrialsCSV.parse(text, path: trials.path)) == text, "\(fixture)/trials.csv")
        }
    }

    @Test func contentionCSVRoundTrips() throws {
        let shares = [
            TierShare(qos: .default, throughputPerSecond: 300, share: 0.6, effectiveNice: 0),
            TierShare(qos: .background, throughputPerSecond: 200, share: 0.4, effectiveNice: 10),
        ]
        #expect(try ContentionCSV.parse(ContentionCSV.serialize(shares), path: "c.csv") == shares)
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "c.csv",
                message:
                    "line 2, column 'qos': 'urgent' is not one of user-interactive, user-initiated, default, utility, background"
            )
        ) {
            try ContentionCSV.parse("qos,share,throughput_per_s,effective_nice\nurgent,1,1,0\n", path: "c.csv")
        }
    }
}

/// Damaged input is never read as data: a torn last line (a crash mid-write) is dropped with a
/// warning; any other damaged row, and files from another run, are errors naming the file.
@Suite struct DamagedRunDirectoryTests {
    static let text = TrialsCSV.serialize(Array(ReportFixtures.single.records.prefix(4)))

    @Test func tornLastLineIsDroppedAndReported() throws {
        let cut = String(Self.text.dropLast(40))  // mid-row, no final line break
        var dropped: [Int] = []
        let records = try TrialsCSV.parse(cut, path: "t.csv") { dropped.append($0) }
        #expect(records.count == 3)
        #expect(dropped == [5])
    }

    @Test func aCompleteLastRowWithoutALineBreakIsKept() throws {
        var dropped: [Int] = []
        let records = try TrialsCSV.parse(String(Self.text.dropLast()), path: "t.csv") { dropped.append($0) }
        #expect(records.count == 4 && dropped.isEmpty)
    }

    @Test func aRaggedRowElsewhereIsAnErrorNamingItsLine() {
        var lines = Self.text.split(separator: "\n").map(String.init)
        lines[2] = lines[2].split(separator: ",", omittingEmptySubsequences: false).dropLast(5).joined(separator: ",")
        let columns = TrialsCSV.columns.count
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "t.csv",
                message:
                    "line 3 has \(columns - 5) fields where the header has \(columns); the file is damaged (an edit, or a write cut short)"
            )
        ) {
            try TrialsCSV.parse(lines.joined(separator: "\n") + "\n", path: "t.csv")
        }
        // Cut short and then followed by more rows: not a torn last line.
        #expect(throws: PoolSizeError.self) { try TrialsCSV.parse(lines.joined(separator: "\n"), path: "t.csv") }
    }

    func directory(_ run: RunData) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-damaged-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try TrialsCSV.serialize(run.records).write(
            to: dir.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        if let info = run.info {
            try JSONExport.serialize(info).write(
                to: dir.appendingPathComponent("machine.json"), atomically: true, encoding: .utf8)
        }
        if let r = run.recommendation {
            try JSONExport.serialize(r).write(
                to: dir.appendingPathComponent("recommendation.json"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func filesFromAnotherRunAreRefused() throws {
        var run = ReportFixtures.single
        let good = try directory(run)
        defer { try? FileManager.default.removeItem(at: good) }
        #expect(try RunDirectory(good).load().recommendation == run.recommendation)

        var other = try #require(run.recommendation?.best)
        other.workload = "cpu"
        run.recommendation = RecommendationSet(best: other, combinations: [other], verdict: "")
        let stale = try directory(run)
        defer { try? FileManager.default.removeItem(at: stale) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: stale.appendingPathComponent("recommendation.json").path,
                message:
                    "workload 'cpu', but trials.csv measured 'io'; it belongs to another run; rerun the sweep, or delete the file to report from trials.csv alone"
            )
        ) {
            try RunDirectory(stale).load()
        }

        run = ReportFixtures.single
        run.info?.plan?.runID = "20261101-000000-io"
        let foreign = try directory(run)
        defer { try? FileManager.default.removeItem(at: foreign) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: foreign.appendingPathComponent("machine.json").path,
                message:
                    "run id '20261101-000000-io', but trials.csv holds run '\(ReportFixtures.runID)'; it belongs to another run; rerun the sweep, or delete the file to report from trials.csv alone"
            )
        ) {
            try RunDirectory(foreign).load()
        }

        run = ReportFixtures.single
        run.info?.plan?.pools = [.threadPool]
        let replanned = try directory(run)
        defer { try? FileManager.default.removeItem(at: replanned) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: replanned.appendingPathComponent("machine.json").path,
                message:
                    "its plan has no queue-pool/default/none, which trials.csv measured; it belongs to another run; rerun the sweep, or delete the file to report from trials.csv alone"
            )
        ) {
            try RunDirectory(replanned).load()
        }

        // An observation's machine.json beside trials.csv: not this sweep's.
        run = ReportFixtures.single
        run.info?.kind = .observation(runID: ReportFixtures.runID, seed: 42)
        let observed = try directory(run)
        defer { try? FileManager.default.removeItem(at: observed) }
        #expect(
            throws: PoolSizeError.invalidInput(
                path: observed.appendingPathComponent("machine.json").path,
                message:
                    "it records no sweep plan (key 'plan'), so it is not a sweep's; pass the sweep's run directory, or delete the file to report from trials.csv alone"
            )
        ) {
            try RunDirectory(observed).load()
        }
    }
}

/// Cells that used to be read as data: an empty required cell, a size below 1, a number too
/// large to be a count.
@Suite struct DamagedCellTests {
    static func row(_ edit: (inout [String]) -> Void) -> String {
        var cells = TrialsCSV.row(ReportFixtures.single.records[0]).dropLast().split(
            separator: ",", omittingEmptySubsequences: false
        ).map(String.init)
        edit(&cells)
        return TrialsCSV.header + cells.joined(separator: ",") + "\n"
    }

    @Test func emptyThroughputIsAnError() {
        let throughput = TrialsCSV.columnNames.firstIndex(of: "throughput_per_s")!
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "t.csv", message: "line 2, column 'throughput_per_s': '' is not a number (the cell is empty)")
        ) {
            try TrialsCSV.parse(Self.row { $0[throughput] = "" }, path: "t.csv")
        }
    }

    @Test func sizeBelowOneIsAnError() {
        let size = TrialsCSV.columnNames.firstIndex(of: "pool_size")!
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "t.csv", message: "line 2, column 'pool_size': '0' is not a pool size of at least 1")
        ) {
            try TrialsCSV.parse(Self.row { $0[size] = "0" }, path: "t.csv")
        }
    }

    @Test func hugeCountsAreAnErrorNotATrap() {
        let threads = TrialsCSV.columnNames.firstIndex(of: "threads")!
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "t.csv", message: "line 2, column 'threads': '1e300' is not a whole number")
        ) {
            try TrialsCSV.parse(Self.row { $0[threads] = "1e300" }, path: "t.csv")
        }
    }
}

/// Whole numbers in a run's JSON follow the rule of trials.csv's (|n| < 2^53), and a plan's
/// figures, however large, are never enumerated: the extreme values that trapped or hung
/// report and compare.
@Suite struct DamagedJSONNumberTests {
    /// A recommended count of Int.min decoded and then overflowed the first distance taken
    /// from it (the chart's nearest point, compare's sizing change): exit 132.
    @Test(arguments: ["-9223372036854775808", "9223372036854775807", "9007199254740992"])
    func aCountPastTwoToThe53IsRefusedNamingItsKey(value: String) throws {
        let set = try #require(ReportFixtures.single.recommendation)
        let text = JSONExport.serialize(set).replacingOccurrences(
            of: "\"recommended_queue_count\" : \(set.best.recommendedQueueCount)",
            with: "\"recommended_queue_count\" : \(value)")
        #expect(text.contains(value))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: "r.json",
                message:
                    "key 'recommended_queue_count' is \(value), beyond the whole numbers a run file holds (±2^53); the file is damaged: rerun the sweep"
            )
        ) {
            try RunDirectoryJSON.decode(RecommendationSet.self, from: text, path: "r.json")
        }
        let inside = text.replacingOccurrences(of: value, with: "9007199254740991")
        #expect(
            try RunDirectoryJSON.decode(RecommendationSet.self, from: inside, path: "r.json").best.recommendedQueueCount
                == 9_007_199_254_740_991)
    }

    /// machine.json's repetitions of 2^53 − 1: the report listed every planned trial to find
    /// the missing ones (a hang, then a failed allocation of 2^57 bytes); now it counts them.
    @Test func aHugePlanIsCountedNotListed() throws {
        var run = ReportFixtures.single
        run.info?.plan?.repetitions = 9_007_199_254_740_991
        run.info?.sizes = Array(Set(run.records.map(\.poolSize))).sorted()
        let info = try #require(run.info)
        let planned = try #require(info.plannedTrials)
        #expect(planned.count == Double(planned.combinations.count * planned.sizes.count) * 9_007_199_254_740_991)
        let caveat = try #require(ReportCaveats.partial(run))
        // 7 sizes × (2^53 − 1) repetitions; the fixture has repetitions 1 and 2 of each size.
        #expect(
            caveat.hasPrefix(
                "**Partial run**: 6.31e+16 of 6.31e+16 planned trials are missing (queue-pool/default/none size 1 rep 3; "
            ), "\(caveat)")
        #expect(caveat.contains("; …); `poolsize sweep --resume RUN_DIR`"))
    }

    /// The missing trials are found in plan order, skipping only those present.
    @Test func theMissingTrialsComeInPlanOrder() {
        let a = Combination(pool: .queuePool, qos: .default, primitive: .none)
        let b = Combination(pool: .threadPool, qos: .default, primitive: .none)
        let planned = RunInfo.PlannedTrials(combinations: [a, b, a], sizes: [1, 2, 2], repetitions: 2)
        #expect(planned.combinations == [a, b] && planned.sizes == [1, 2] && planned.count == 8)
        let present: Set = [
            RunInfo.PlannedTrials.Key(combination: a, size: 1, repetition: 1),
            RunInfo.PlannedTrials.Key(combination: a, size: 2, repetition: 2),
        ]
        #expect(
            planned.missing(from: present, limit: 3).map {
                "\($0.combination.pool.rawValue) \($0.size) \($0.repetition)"
            } == ["queue-pool 1 2", "queue-pool 2 1", "thread-pool 1 1"])
        #expect(planned.contains(.init(combination: b, size: 2, repetition: 2)))
        #expect(
            !planned.contains(.init(combination: b, size: 2, repetition: 3))
                && !planned.contains(.init(combination: b, size: 4, repetition: 1)))
    }
}
