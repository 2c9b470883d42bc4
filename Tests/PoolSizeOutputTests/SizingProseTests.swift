import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// The sentences a recommendation is explained in, worded from Analysis's findings on curves
/// built by hand (the same curves as RecommenderTests and SLOSizerTests): golden text.
@Suite struct SizingProseTests {
    static func record(
        _ size: Int, _ throughput: Double, utilization: Double = 1, pool: PoolKind = .queuePool,
        primitive: PrimitiveKind = .none
    ) -> TrialRecord {
        TrialRecord(
            runID: "r", workload: "w", pool: pool, qos: .default, primitive: primitive, poolSize: size, repetition: 1,
            tasks: throughput, wallSeconds: 1, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: utilization, peakConcurrency: size,
            threads: size, effectiveNice: 0, integrity: .notApplicable)
    }

    static let lowLoad = LowLoadEstimate(
        waitMicroseconds: [14800, 15000, 15200], cpuMicroseconds: [1000, 1000, 1000], seconds: 0.05)

    static func reason(
        _ records: [TrialRecord], targetUtilization: Double = 1, spelling: SettingSpelling = .flags,
        sizeLimit: Int? = nil
    ) throws -> String {
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: lowLoad, cores: 2, targetUtilization: targetUtilization,
                sizeLimit: sizeLimit))
        #expect(r.reason.isEmpty, "Analysis words nothing")
        return SizingProse.worded(r, spelling: spelling).reason
    }

    @Test func kneeAndFormulaAgree() throws {
        let records = [1, 2, 4, 8, 16, 24, 28, 30, 32, 34, 40, 64].map {
            Self.record($0, min(Double($0) / 0.016, 2000))
        }
        let reason = try Self.reason(records)
        #expect(
            reason.hasPrefix(
                "Measured and predicted agree: 32 queues reach within 5% of the peak 2000 tasks/s, and the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0)), 0% apart."
            ), "\(reason)")
    }

    /// A knee where a slow creep starts says what it is and where the creep ends, not that 8
    /// queues reach within 5% of a peak 11% above them (RecommenderTests' creep curve).
    @Test func aSlowCreepIsWordedAsOne() throws {
        let records = [
            1: 44.0, 2: 88, 4: 176, 8: 352, 16: 357, 32: 362, 64: 367, 128: 371, 256: 377, 512: 384, 1024: 392,
        ].map {
            Self.record($0.key, $0.value, utilization: 0.1)
        }
        let reason = try Self.reason(records)
        #expect(
            reason.hasPrefix(
                "The formula over-predicts: throughput stops rising at 8 queues (352 tasks/s; no doubling past them adds 5% more than the repetitions' spread, though a slow creep reaches 392 tasks/s at 1024) while CPU utilization is only 10.0%, so something other than CPU (a lock or other serialization) caps throughput; the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0))."
            ), "\(reason)")
        #expect(!reason.contains("within 5% of the peak"))
    }

    /// Issue 45, item 1: a server whose one CPython process (a gthread worker's threads) kept
    /// 0.98 cores busy at its knee names the interpreter lock and the formula on
    /// min(2 cores, 1 process) = 1 (1 × (1 + 15) = 16), where it said "a lock or other
    /// serialization"; a Ruby process short of its core is still held to it with its threads.
    @Test func aServersInterpreterLockIsNamedWithTheFormulaItAllows() throws {
        func records(_ runtime: String, processes: Int, utilization: Double) -> [TrialRecord] {
            [1, 2, 4, 8, 10, 16, 32, 64].map { size in
                var record = Self.record(size, min(Double(size) * 62.5, 600), utilization: utilization, pool: .server)
                record.processThreads = size + 2
                record.watched = .server(ServerFigures(processes: processes, interpreterLock: runtime))
                return record
            }
        }
        let cpython = try Self.reason(records("cpython 3.11", processes: 1, utilization: 0.49))
        #expect(
            cpython.hasPrefix(
                "The formula over-predicts: 10 queues reach within 5% of the peak 600 tasks/s while CPU utilization is only 49.0%: the server runs CPython 3.11, whose global interpreter lock runs one thread's Python at a time in each process, and its 1 process kept 0.980 cores busy at the knee (of the 1 the lock allows), so the lock caps throughput; the cores the formula may count are min(2 cores, 1 process) = 1, not the machine's 2, which gives 16.0 (1 × U 1.00 × (1 + W/C 15.0)); the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0))."
            ), "\(cpython)")
        let ruby = try Self.reason(records("ruby", processes: 1, utilization: 0.3))
        #expect(
            ruby.contains(
                "the server runs Ruby, whose global interpreter lock runs one thread's Ruby at a time in each process, and its 1 process kept 0.600 cores busy at the knee (of the 1 the lock allows), so its 12 threads share what the lock allows, whatever cores the machine has; the cores the formula may count are min(2 cores, 1 process) = 1"
            ), "\(ruby)")
    }

    @Test func stillRising() throws {
        let records = [1, 2, 4, 8].map { Self.record($0, Double($0) * 62.5, utilization: Double($0) / 32) }
        let reason = try Self.reason(records)
        #expect(
            reason.hasPrefix(
                "Throughput was still rising at the largest size measured (8), so there is no knee yet; the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0)) and the recommendation is 32. Measure larger sizes (--sizes 1...64) to locate the knee."
            ), "\(reason)")
    }

    /// A curve still rising at its largest size has no knee: the tables mark that size the peak
    /// only (they marked it "knee, peak" beside "knee none yet").
    @Test func aStillRisingCurvesLargestSizeIsNoKnee() throws {
        let records = [1, 2, 4, 8].map { Self.record($0, Double($0) * 62.5, utilization: Double($0) / 32) }
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        #expect(r.recommendedQueueCount == 32)
        #expect(ConsoleSummary.marks(8, r) == "peak")
        #expect(ReportBuilder.marks(8, r) == "peak")
    }

    /// A database's connection limit bounds the answer: at it, nothing larger can be measured;
    /// below it, the sweep can measure up to it.
    @Test func stillRisingAtTheServersLimit() throws {
        let records = [1, 2, 4, 8].map { Self.record($0, Double($0) * 62.5, utilization: Double($0) / 32) }
        #expect(
            try Self.reason(records, sizeLimit: 8)
                == "Throughput was still rising at 8, the most connections the server allows, so no knee could be measured; the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0)), past the limit, so the recommendation is 8."
        )
        #expect(
            try Self.reason(records, sizeLimit: 20)
                == "Throughput was still rising at the largest size measured (8), so there is no knee yet; the server allows 20 connections and the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0)), past the limit, so the recommendation is 20. Measure up to that limit (--sizes 1...20) to locate the knee."
        )
    }

    /// What the library returns to Swift code names the setting, not a flag no Swift caller has.
    @Test func stillRisingForALibraryCaller() throws {
        let records = [1, 2, 4, 8].map { Self.record($0, Double($0) * 62.5, utilization: Double($0) / 32) }
        let reason = try Self.reason(records, spelling: .settings)
        #expect(reason.hasSuffix("Measure larger sizes (`sizes` 1...64) to locate the knee."), "\(reason)")
        #expect(!reason.contains("--"))
    }

    @Test func serialization() throws {
        let records = [1, 2, 4, 8, 10, 16, 32, 64].map {
            Self.record($0, min(Double($0) * 62.5, 600), utilization: 0.3)
        }
        let reason = try Self.reason(records)
        #expect(
            reason.hasPrefix(
                "The formula over-predicts: 10 queues reach within 5% of the peak 600 tasks/s while CPU utilization is only 30.0%, so something other than CPU (a lock or other serialization) caps throughput; the formula gives 32.0"
            ), "\(reason)")
    }

    @Test func coarseSizes() throws {
        let records = [1, 16, 64, 128].map { Self.record($0, min(Double($0) / 0.016, 2000)) }
        let reason = try Self.reason(records)
        #expect(
            reason.hasPrefix(
                "The sizes measured are too coarse to test the formula: 64 queues reach within 5% of the peak 2000 tasks/s, but nothing was measured between 16 and 64, where the formula gives 32.0 (2 cores × U 1.00 × (1 + W/C 15.0)); measure that range (--sizes 16...64:6) to find the knee."
            ), "\(reason)")
    }

    @Test func belowFullUtilizationTheThresholdIsNamed() throws {
        let records = [1, 8, 16, 24, 32, 40].map { Self.record($0, min(Double($0) * 62.5, 2000), utilization: 0.9) }
        let reason = try Self.reason(records, targetUtilization: 0.5)
        #expect(reason.contains("16 queues reach 47.5% of the peak 2000 tasks/s"), "\(reason)")
    }

    @Test func closedVerdictNamesTheBestAndTheGaps() throws {
        let sizes = [1, 2, 4, 8, 16, 32]
        let records =
            sizes.map { Self.record($0, min(Double($0) * 100, 1000)) }
            + sizes.map { Self.record($0, min(Double($0) * 100, 800), primitive: .mutex) }
            + sizes.map { Self.record($0, min(Double($0) * 100, 1000), pool: .threadPool) }
        let set = try #require(
            Recommender.recommendAll(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        let worded = SizingProse.worded(set)
        #expect(
            worded.verdict
                == "Best: queue-pool/default/none, peak 1000 tasks/s, 16 queues. Others: thread-pool/default/none 0.0% lower peak, 16 queues; queue-pool/default/mutex 20.0% lower peak, 8 queues."
        )
        #expect(worded.best.reason == worded.combinations[0].reason && !worded.best.reason.isEmpty)
    }

    /// An open-loop trial at `rate`: `carried` of the arrivals, p99 `p99` ms.
    static func trial(_ size: Int, carried: Double = 1, p99: Double, pool: PoolKind = .queuePool) -> TrialRecord {
        var r = TrialRecord(
            runID: "r", workload: "io", pool: pool, qos: .default, primitive: .none, poolSize: size, repetition: 1,
            tasks: 1000 * carried * 2, wallSeconds: 2, throughputPerSecond: 1000 * carried,
            cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.5 * carried, peakConcurrency: size,
            threads: size,
            effectiveNice: 0, integrity: .notApplicable,
            latency: LatencyPercentiles(
                p50: p99 * 600, p90: p99 * 800, p99: p99 * 1000, p999: p99 * 1100, max: p99 * 1200))
        r.loop = .open(
            OpenLoopFigures(
                arrivalRate: 1000, offeredPerSecond: 1000, achievedPerSecond: 1000 * carried, backlogMean: 16,
                backlogMax: 30, backlogGrowth: 0, stable: carried >= 0.99))
        return r
    }

    static let openLowLoad = LowLoadEstimate(
        waitMicroseconds: Array(repeating: 15000, count: 50), cpuMicroseconds: Array(repeating: 1000, count: 50),
        seconds: 0.8)
    static let curve = [
        trial(8, carried: 0.5, p99: 1160), trial(16, carried: 0.96, p99: 1950), trial(17, p99: 43),
        trial(20, p99: 23.3), trial(24, p99: 21),
    ]

    static func openSet(_ records: [TrialRecord], slo: Double) throws -> RecommendationSet {
        let arrival = ArrivalPlan(rates: [1000], latencySLOMicroseconds: slo)
        let set = try #require(
            Recommender.recommendAll(
                workload: "io", records: records, lowLoad: openLowLoad, cores: 2, targetUtilization: 1,
                load: .open(arrival)))
        return SizingProse.worded(set)
    }

    @Test func objectiveMet() throws {
        let set = try Self.openSet(Self.curve, slo: 40_000)
        #expect(
            set.best.reason
                == "At 1000/s (poisson arrivals), 20 queues keep p99 latency at 23.3 ms (1 trial), within the 40.0 ms objective, counted from each task's intended arrival. Smaller sizes did not: 17 kept up but its p99 was 43.0 ms, 3.00 ms (7.5%) over; 16 fell behind (carried 96.0% of the arrivals, p99 at least 1.95 s); 8 fell behind (carried 50.0% of the arrivals, p99 at least 1.16 s). Little's law puts the average busy queues at 16.0 (rate × C + W of 16.0 ms at low load); the queueing model (the task's own p99 plus M/M/c's wait for a free queue) asks for 19."
        )
    }

    @Test func objectiveNoSizeCanMeet() throws {
        let set = try Self.openSet(Self.curve, slo: 10_000)
        #expect(
            set.best.reason.hasPrefix(
                "At 1000/s (poisson arrivals), no size met the 10.0 ms p99 objective, and none can: a task alone takes 16.0 ms at its p99 (C + W at low load), longer than the objective allows; queues only add to that. Relax the objective or make the task faster. Smaller sizes did not: 24 kept up but its p99 was 21.0 ms"
            ), "\(set.best.reason)")
    }

    @Test func objectiveMissedNamesARateThatWouldMeetIt() throws {
        let records = [Self.trial(8, carried: 0.5, p99: 1160), Self.trial(16, carried: 0.96, p99: 1950)]
        let set = try Self.openSet(records, slo: 40_000)
        let rate = try #require(
            SLOSizer.sustainableRate(
                size: 16, lowLoad: Self.openLowLoad, arrival: ArrivalPlan(rates: [1000], latencySLOMicroseconds: 40_000)
            ))
        #expect(set.best.reason.contains("no size up to 16 met the objective (p99 ≤ 40.0 ms)."))
        #expect(
            set.best.reason.hasSuffix(
                " 16 queues would meet it at about \(UnitFormat.significant(rate))/s by the queueing model, or measure larger sizes (--sizes 16...32)."
            ), "\(set.best.reason)")
    }

    /// Larger sizes that did worse are said so, with the size that came nearest, and no advice
    /// to measure larger ones.
    @Test func objectiveMissedWithLargerSizesWorseNamesTheNearest() throws {
        let records = [Self.trial(24, p99: 45), Self.trial(32, p99: 90), Self.trial(96, carried: 0.6, p99: 1400)]
        let set = try Self.openSet(records, slo: 40_000)
        #expect(
            set.best.reason.hasSuffix(
                " 24 came nearest (p99 45.0 ms) and larger sizes did worse: more queues slow what the tasks share (a lock, the cores, the server they call), so larger sizes will not help; relax the objective, lower the rate, or measure around 24 (--sizes 12...48) with --repeat 3."
            ), "\(set.best.reason)")
        #expect(!set.best.reason.contains("queueing model, or measure larger sizes"))
    }

    @Test func openVerdictPrefersTheCombinationMeetingItWithFewerQueues() throws {
        var other = Self.curve.map { record -> TrialRecord in
            var r = record
            r.pool = .threadPool
            return r
        }
        other[3].latency.p99 = 45_000
        let set = try Self.openSet(Self.curve + other, slo: 40_000)
        #expect(
            set.verdict
                == "Best: queue-pool/default/none, 20 queues at 1000/s (p99 ≤ 40.0 ms). Others: thread-pool/default/none 24 queues."
        )
    }

    @Test func aRecommendationReadFromAFileKeepsItsText() {
        var r = Recommendation(
            workload: "io", cores: 2, waitCPURatio: 15, waitCPURatioLower: nil, waitCPURatioUpper: nil,
            specWaitCPURatio: nil,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, targetUtilization: 1,
            formulaQueueCountExact: 32,
            formulaQueueCountStandardError: 0, formulaQueueCount: 32, recommendedQueueCount: 32,
            sizing: .knee(
                .init(
                    kneeQueueCount: 32, kneeThroughputPerSecond: 2000, peakQueueCount: 32,
                    peakThroughputPerSecond: 2000, tolerance: 0.05)),
            reason: "as written")
        r.explanation = nil
        #expect(SizingProse.worded(r).reason == "as written")
    }
}
