import Foundation
import PoolSizeModel
import PoolSizeOutput
import Testing
import PoolSizeAnalysis

@Suite struct PlanOutputTests {
    static func judgedPlan() throws -> CapacityPlan {
        try wordedPlan(
            PlanInputs(
                waitSeconds: 0.040, cpuSeconds: 0.005, targetRatePerSecond: 1000, coresPerHost: 8, targetUtilization: 1)
        )
    }

    @Test func goldenTable() throws {
        let text = PlanReport.render(try Self.judgedPlan())
        let expected = """
            capacity plan for 1000/s: W 40 ms, C 5 ms (W/C 8, declared), 8 cores per host, U 1

            threads per host     72       8 cores × U 1 × (1 + W/C 8) = 72, rounded up (Goetz)
            hosts                1        1000/s × (1 + 0% headroom) ÷ 1600/s per host (8 cores × U 1 ÷ C) = 0.625, rounded up
            CPU utilization      62.5%    per host: 1000/s × C 5 ms ÷ 8 cores
            tasks in system      45.3     per host, Little's law L = λ(W + C + Wq) = 1000/s × 45.3 ms; 45.3 over all hosts
            queued for a core    0.279    per host, Lq = λ·Wq
            P(wait for a core)   16.7%    Erlang C: 8 cores offered 5 erlangs (M/M/c)
            mean queueing delay  279 µs   Wq = C(c, a) ÷ (c/C − λ)
            mean response time   45.3 ms  W + C + Wq
            p99 response time    49.7 ms  W + C + p99 of the wait for a core (4.7 ms)
            P(all threads busy)  0.016%   Erlang C: 72 threads offered 45.3 erlangs
            SLO                  none     pass --latency-slo 250ms (and --slo-percentile 99) to check one

            assumptions:
              - Tasks arrive at random (a Poisson process) at 1000/s in total, spread evenly over the hosts, and are independent of each other.
            """
        #expect(text.hasPrefix(expected))
        #expect(text.hasSuffix("  - Nothing else runs on the hosts' CPUs.\n"))
    }

    @Test func jsonHasTheIssuesKeys() throws {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONExport.serialize(try Self.judgedPlan()).utf8))
                as? [String: Any])
        #expect(json["threads_per_host"] as? Int == 72)
        #expect(json["hosts"] as? Int == 1)
        #expect(json["utilization"] as? Double == 0.625)
        let queue = try #require(json["queue"] as? [String: Any])
        #expect(abs((queue["wait_probability"] as? Double ?? 0) - 0.167267) < 1e-6)
        #expect(queue["tasks_in_system_per_host"] != nil)
        #expect((json["assumptions"] as? [String])?.count == 6)
    }

    /// lowload.json as a sweep writes it, with the figures given as text.
    static func lowLoadJSON(cpu: String, wait: String) -> String {
        #"{"schema_version": 1, "tasks": 44, "seconds": 0.6, "cpu_microseconds_per_task": \#(cpu), "wait_microseconds_per_task": \#(wait)}"#
    }

    @Test func readsWAndCAndTheKneeFromARunDirectory() throws {
        let dir = try ScratchRunDirectory()
        try dir.write(
            "lowload.json",
            JSONExport.serialize(
                LowLoadEstimate(
                    tasks: 44, seconds: 0.6, cpuMicrosecondsPerTask: 5000, waitMicrosecondsPerTask: 40000, ratio: nil)))
        let recommendation = Recommendation(
            workload: "io", cores: 2, waitCPURatio: 8, waitCPURatioLower: 7.9, waitCPURatioUpper: 8.1,
            specWaitCPURatio: nil, cpuMicrosecondsPerTask: 5000, waitMicrosecondsPerTask: 40000, targetUtilization: 1,
            formulaQueueCountExact: 18, formulaQueueCountStandardError: 0.1, formulaQueueCount: 18,
            recommendedQueueCount: 17,
            sizing: .knee(
                .init(
                    kneeQueueCount: 17, kneeThroughputPerSecond: 390, peakQueueCount: 17,
                    peakThroughputPerSecond: 400, tolerance: 0.05)), reason: "")
        try dir.write(
            "recommendation.json",
            JSONExport.serialize(RecommendationSet(best: recommendation, combinations: [recommendation], verdict: "")))
        try dir.write(
            "machine.json",
            ReportFixtures.machineJSON(
                runID: "r-io", cores: CoreCount(online: 4, affinity: 4, cgroupQuota: 2), cpuModel: "Test CPU"))
        let source = try PlanSourceReader.load(dir.path)
        #expect(source.waitSeconds == 0.04)
        #expect(source.cpuSeconds == 0.005)
        #expect(
            source.run
                == MeasuredRun(
                    path: dir.path, runID: "r-io", workload: "io", cpuModel: "Test CPU", cores: 2,
                    waitCPURatioLower: 7.9, waitCPURatioUpper: 8.1, kneePoolSize: 17, formulaQueueCountExact: 18,
                    recommendedQueueCount: 17))
    }

    /// camelCase keys (as before the files were snake_cased) are not read: nothing with them was
    /// released, so such a file is refused, naming it and the first key it lacks.
    @Test func refusesCamelCaseKeys() throws {
        let dir = try ScratchRunDirectory()
        try dir.write(
            "lowload.json",
            #"{"schema_version": 1, "tasks": 44, "seconds": 0.6, "cpuMicrosecondsPerTask": 4000, "waitMicrosecondsPerTask": 8000}"#
        )
        try dir.write(
            "machine.json",
            ReportFixtures.machineJSON(
                runID: "old", cores: CoreCount(online: 8, affinity: 8, cgroupQuota: 3), cpuModel: "Old CPU"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("lowload.json").path,
                message: "key 'cpu_microseconds_per_task' missing; expected the schema in results/README.md")
        ) {
            try PlanSourceReader.load(dir.path)
        }
    }

    @Test func runDirectoryErrorsNameTheFile() throws {
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: "/nonexistent/run",
                hint: "--from takes a run directory written by 'poolsize sweep' (results/<run-id>)")
        ) {
            try PlanSourceReader.load("/nonexistent/run")
        }
        let dir = try ScratchRunDirectory()
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: dir.url.appendingPathComponent("lowload.json").path,
                hint:
                    "the run has no low-load W and C (it stopped before measuring them); rerun the sweep or pass --wait and --cpu"
            )
        ) {
            try PlanSourceReader.load(dir.path)
        }
        try dir.write("lowload.json", Self.lowLoadJSON(cpu: #""fast""#, wait: "10"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("lowload.json").path,
                message: "key 'cpu_microseconds_per_task' has the wrong type; expected the schema in results/README.md")
        ) {
            try PlanSourceReader.load(dir.path)
        }
        try dir.write("lowload.json", Self.lowLoadJSON(cpu: "0", wait: "10"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("lowload.json").path,
                message:
                    "C = 0 µs and W = 10 µs per task are not times a sweep measures (C more than 0, C and W at most 1 h, W/C at most 1000000); rerun the sweep, or pass --wait and --cpu instead of --from"
            )
        ) {
            try PlanSourceReader.load(dir.path)
        }
        // A damaged file is named as such, with a readable figure, not blamed on --wait with a
        // 300-digit number of threads (W/C = 1e303 before).
        try dir.write("lowload.json", Self.lowLoadJSON(cpu: "1e-300", wait: "1000"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("lowload.json").path,
                message:
                    "C = 0 µs and W = 1000 µs per task are not times a sweep measures (C more than 0, C and W at most 1 h, W/C at most 1000000); rerun the sweep, or pass --wait and --cpu instead of --from"
            )
        ) {
            try PlanSourceReader.load(dir.path)
        }
        try dir.write("lowload.json", Self.lowLoadJSON(cpu: "1000", wait: "1e300"))
        #expect(
            throws: PoolSizeError.invalidInput(
                path: dir.url.appendingPathComponent("lowload.json").path,
                message:
                    "C = 1000 µs and W = 1e+300 µs per task are not times a sweep measures (C more than 0, C and W at most 1 h, W/C at most 1000000); rerun the sweep, or pass --wait and --cpu instead of --from"
            )
        ) {
            try PlanSourceReader.load(dir.path)
        }
    }
}

/// A directory under the system temp dir, removed when the value is deallocated.
final class ScratchRunDirectory {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
}

/// `plan --from` an open-loop run: the size measured at the rate each host gets, not a knee.
@Suite struct PlanFromOpenLoopTests {
    /// The range fixture (500/s → 17, 1000/s → 24, 1500/s → 32 queues for p99 ≤ 40 ms, 2
    /// cores) read back from its files, as `plan --from` reads it.
    static func source() throws -> PlanSource {
        let dir = try OpenLoopFixtures.directory(OpenLoopFixtures.range, id: OpenLoopFixtures.runID)
        return try PlanSourceReader.load(dir.path)
    }

    static func row(rate: Double, cores: Int = 2) throws -> String {
        let source = try source()
        let plan = try wordedPlan(
            PlanInputs(
                waitSeconds: source.waitSeconds, cpuSeconds: source.cpuSeconds, targetRatePerSecond: rate,
                coresPerHost: cores,
                targetUtilization: 0.8, measuredRun: source.run))
        return try #require(
            PlanReport.render(plan).split(separator: "\n").first { $0.hasPrefix("measured, open loop") }.map(
                String.init))
    }

    @Test func anOpenLoopRunHasSizesPerRateAndNoKnee() throws {
        let run = try Self.source().run
        #expect(run.kneePoolSize == nil)
        #expect(run.openLoop?.latencySLOMicroseconds == 40_000)
        #expect(run.openLoop?.sizings.map(\.arrivalRate) == [500, 1000, 1500])
        #expect(run.openLoop?.sizings.map(\.recommendedQueueCount) == [17, 24, 32])
    }

    /// 1000/s on 2 cores at U 0.8: capacity 1600/s per host, one host gets all 1000/s, the run's
    /// answer at 1000/s is 24 (p99 21 ms). No "measured knee" row.
    @Test func theSizeMeasuredAtTheRateEachHostGets() throws {
        #expect(
            try Self.row(rate: 1000)
                == "measured, open loop  24 threads  the smallest size meeting p99 ≤ 40 ms at 1000/s on 2 cores, measured 21 ms, the lowest rate the run offered not below 1000/s per host"
        )
        // 2400/s over 2 hosts (1600/s each): 1200/s per host, answered at 1500/s.
        #expect(
            try Self.row(rate: 2400).contains(
                "32 threads  the smallest size meeting p99 ≤ 40 ms at 1500/s on 2 cores, measured 26 ms, the lowest rate the run offered not below 1200/s per host"
            ))
        let source = try Self.source()
        let plan = try wordedPlan(
            PlanInputs(
                waitSeconds: source.waitSeconds, cpuSeconds: source.cpuSeconds, targetRatePerSecond: 1000,
                coresPerHost: 2, measuredRun: source.run))
        #expect(!PlanReport.render(plan).contains("measured knee"))
    }

    /// 8-core hosts take 6400/s each at U 0.8: above every rate the run offered.
    @Test func aRateAboveTheRunSaysWhatToMeasure() throws {
        #expect(
            try Self.row(rate: 6000, cores: 8)
                == "measured, open loop  beyond the run  each host gets 6000/s; the run offered at most 1500/s on 2 cores: sweep --arrival-rate 6000/s to measure it (these hosts have 8: measure on one)"
        )
    }

    /// A rate read back from trials.csv (16.667) answers a plan for 1000/min per host.
    @Test func ratesMatchAtTheFilesPrecision() {
        let open = MeasuredOpenLoop(
            latencySLOMicroseconds: nil, sloPercentile: 99,
            sizings: [
                RateSizing(
                    arrivalRate: 16.667, recommendedQueueCount: 1, percentileMicroseconds: 17_000,
                    queueingModelQueueCount: 1),
                RateSizing(
                    arrivalRate: 33.333, recommendedQueueCount: 2, percentileMicroseconds: 17_000,
                    queueingModelQueueCount: 1),
            ])
        #expect(open.sizing(atLeast: ArrivalRate(perSecond: 1000.0 / 60))?.recommendedQueueCount == 1)
        #expect(open.sizing(atLeast: 16.7)?.recommendedQueueCount == 2)
        #expect(open.sizing(atLeast: 40) == nil)
    }

    /// A rate where no size met the objective, with a size meeting it at a higher rate: named
    /// as noise. The plan's own objective differs from the run's: said.
    @Test func noneMetPointsAtNoiseAndNamesTheRunsObjective() throws {
        var run = MeasuredRun(path: "r", cores: 2)
        run.openLoop = MeasuredOpenLoop(
            latencySLOMicroseconds: 40_000, sloPercentile: 99,
            sizings: [
                RateSizing(
                    arrivalRate: 500, recommendedQueueCount: nil, percentileMicroseconds: nil,
                    queueingModelQueueCount: 11),
                RateSizing(
                    arrivalRate: 1000, recommendedQueueCount: 24, percentileMicroseconds: 21_000,
                    queueingModelQueueCount: 19),
            ])
        let plan = try wordedPlan(
            PlanInputs(
                waitSeconds: 0.015, cpuSeconds: 0.001, targetRatePerSecond: 400, coresPerHost: 2,
                latencySLOSeconds: 0.1, measuredRun: run))
        let row = try #require(
            PlanReport.render(plan).split(separator: "\n").first { $0.hasPrefix("measured, open loop") })
        #expect(
            row
                == "measured, open loop  none met  no size the run measured met p99 ≤ 40 ms (the run's objective) at 500/s on 2 cores, the lowest rate it offered not below 400/s per host; yet 24 met it at 1000/s, so the run is noisy there: repeat it with more --repeat"
        )
    }

    /// Several combinations: the row names the one its sizes are for. JSON uses the units
    /// convention of recommendation.json.
    @Test func severalCombinationsAreNamedAndJSONKeysCarryUnits() throws {
        let dir = try OpenLoopFixtures.directory(OpenLoopCombinationsConsoleTests.run, id: OpenLoopFixtures.runID)
        let source = try PlanSourceReader.load(dir.path)
        #expect(source.run.openLoop?.combination == "queue-pool / default / none")
        let plan = try wordedPlan(
            PlanInputs(
                waitSeconds: source.waitSeconds, cpuSeconds: source.cpuSeconds, targetRatePerSecond: 1000,
                coresPerHost: 2, measuredRun: source.run))
        #expect(
            PlanReport.render(plan).contains(
                "measured, open loop  20 threads  the smallest size meeting p99 ≤ 40 ms at 1000/s on 2 cores (queue-pool / default / none, the best of the combinations swept), measured 23.3 ms"
            ))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONExport.serialize(plan).utf8)) as? [String: Any])
        let open = try #require(
            ((json["measured"] as? [String: Any])?["run"] as? [String: Any])?["open_loop"] as? [String: Any])
        #expect(open["latency_slo_us"] as? Double == 40_000)
        #expect((open["rate_sizings"] as? [[String: Any]])?.first?["arrival_rate_per_s"] as? Double == 1000)
    }

    /// Rates in the row to the thousandth: 50.04/s per host is above the run's 50/s.
    @Test func rowRatesKeepTheirThousandths() throws {
        var run = MeasuredRun(path: "r", cores: 2)
        run.openLoop = MeasuredOpenLoop(
            latencySLOMicroseconds: nil, sloPercentile: 99,
            sizings: [
                RateSizing(
                    arrivalRate: 50, recommendedQueueCount: 1, percentileMicroseconds: 17_000,
                    queueingModelQueueCount: 1),
                RateSizing(
                    arrivalRate: 60, recommendedQueueCount: 2, percentileMicroseconds: 18_000,
                    queueingModelQueueCount: 2),
            ])
        let plan = try wordedPlan(
            PlanInputs(
                waitSeconds: 0.015, cpuSeconds: 0.001, targetRatePerSecond: 50.04, coresPerHost: 2, measuredRun: run))
        let row = try #require(
            PlanReport.render(plan).split(separator: "\n").first { $0.hasPrefix("measured, open loop") })
        #expect(
            row
                == "measured, open loop  2 threads  the smallest size keeping up at 60/s on 2 cores, measured 18 ms, the lowest rate the run offered not below 50.04/s per host"
        )
    }
}
