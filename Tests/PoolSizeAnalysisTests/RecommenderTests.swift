import PoolSizeModel
import PoolSizeStats
import Testing
import PoolSizeAnalysis

/// Recommendations on curves built by hand.
@Suite struct RecommenderTests {
    static func record(_ size: Int, _ throughput: Double, utilization: Double = 1, peak: Int? = nil, rep: Int = 1)
        -> TrialRecord
    {
        TrialRecord(
            runID: "r", workload: "w", pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
            repetition: rep,
            tasks: throughput, wallSeconds: 1, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: utilization, peakConcurrency: peak ?? size,
            threads: size, effectiveNice: 0, integrity: .notApplicable)
    }

    static let lowLoad = LowLoadEstimate(
        waitMicroseconds: [14800, 15000, 15200], cpuMicroseconds: [1000, 1000, 1000], seconds: 0.05)

    /// X(N) = min(N / 16 ms, 2000/s): the analytic curve of the io workload on 2 cores.
    @Test func idealCurveGivesTheFormulasCount() throws {
        let sizes = [1, 2, 4, 8, 16, 24, 28, 30, 32, 34, 40, 64]
        let records = sizes.map { Self.record($0, min(Double($0) / 0.016, 2000)) }
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        // 30 reaches 1875 = 93.75% of the peak (< 95%); 32 reaches 2000.
        #expect(r.kneeQueueCount == 32)
        #expect(r.recommendedQueueCount == 32)
        #expect(r.formulaQueueCount == 32)
        #expect(r.formulaQueueCountExact == 32)
        #expect(r.basis == .knee)
        #expect(r.curve?.peakThroughputPerSecond == 2000)
        // SE(W/C) = sd([14.8, 15, 15.2]) / √3 = 0.2 / √3 = 0.11547; N's is 2 × 1 × that.
        #expect(abs(r.formulaQueueCountStandardError - 0.230940) < 1e-5)
        #expect(r.explanation == .knee(.agree(gap: 0), peakMayLieBeyond: nil))
    }

    /// The issue's gunicorn curve, one trial a size as the search's bracket and bisection
    /// measured it: 44/s a client up to 8, then a creep from 352/s to 392/s at 1024. The
    /// near-peak rule put the knee where the creep last crossed 0.95 × 392 = 372.4 (184, at
    /// 372.5/s); it is 8, where the curve stops rising, and the recommendation follows it.
    static let creep: [Int: Double] = [
        1: 44, 2: 88, 4: 176, 6: 264, 7: 308, 8: 352, 16: 357, 32: 362, 64: 367, 128: 371, 160: 372, 184: 372.5,
        256: 377, 512: 384, 1024: 392,
    ]

    @Test func aSlowCreepIsRecommendedWhereItStarts() throws {
        let records = Self.creep.map { Self.record($0.key, $0.value, utilization: 0.1) }
        let r = try #require(
            Recommender.recommend(
                workload: "http", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        #expect(r.kneeQueueCount == 8)
        #expect(r.curve?.kneeThroughputPerSecond == 352)
        #expect(r.recommendedQueueCount == 8)
        #expect(r.basis == .knee)
        #expect(r.peakQueueCount == 1024)
        guard case .knee(_, peakMayLieBeyond: nil, basis: .flattened) = r.explanation else {
            Issue.record("explanation: \(String(describing: r.explanation))")
            return
        }
    }

    @Test func stillRisingFallsBackToTheFormula() throws {
        let records = [1, 2, 4, 8].map { Self.record($0, Double($0) * 62.5, utilization: Double($0) / 32) }
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        #expect(r.basis == .formula)
        #expect(r.recommendedQueueCount == 32)
        #expect(r.explanation == .knee(.stillRising(largest: 8, suggestedLargest: 64), peakMayLieBeyond: nil))
    }

    /// A database allows only so many connections: a still-rising curve whose formula asks for
    /// more is answered with the limit, never past it (the limit 8 is the largest size measured;
    /// 20 lies between it and the formula's 32; at 100 the formula stands).
    @Test func theFormulaNeverGoesPastTheTargetsLimit() throws {
        let records = [1, 2, 4, 8].map { Self.record($0, Double($0) * 62.5, utilization: Double($0) / 32) }
        func answer(_ limit: Int) throws -> Recommendation {
            try #require(
                Recommender.recommend(
                    workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1,
                    sizeLimit: limit))
        }
        let atLimit = try answer(8)
        #expect(atLimit.recommendedQueueCount == 8)
        #expect(atLimit.explanation == .knee(.stillRisingAtLimit(largest: 8, limit: 8), peakMayLieBeyond: nil))
        let between = try answer(20)
        #expect(between.recommendedQueueCount == 20)
        #expect(between.explanation == .knee(.stillRisingAtLimit(largest: 8, limit: 20), peakMayLieBeyond: nil))
        let above = try answer(100)
        #expect(above.recommendedQueueCount == 32)
        #expect(above.explanation == .knee(.stillRising(largest: 8, suggestedLargest: 64), peakMayLieBeyond: nil))
        #expect(
            try answer(40).explanation == .knee(.stillRising(largest: 8, suggestedLargest: 40), peakMayLieBeyond: nil))
    }

    @Test func lowUtilizationPlateauBlamesSerialization() throws {
        // A lock caps throughput at 600/s from 10 queues on while the CPU is 30% busy.
        let records = [1, 2, 4, 8, 10, 16, 32, 64].map {
            Self.record($0, min(Double($0) * 62.5, 600), utilization: 0.3)
        }
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        #expect(r.kneeQueueCount == 10)
        #expect(r.recommendedQueueCount == 10)
        guard case .knee(.overPredictedSerialization(let utilization), _, _) = r.explanation else {
            Issue.record("explanation: \(String(describing: r.explanation))")
            return
        }
        #expect(utilization == 0.3)
    }

    /// A server's plateau at 600/s from 10 threads on, the formula at 32 (2 cores × (1 + 15)),
    /// its processes running `runtime` (`processes(size)` of them did work) with `utilization`
    /// of the 2 cores busy: gunicorn's gthread worker holds its threads in one process, its
    /// sync workers are one process each.
    static func serverPlateau(
        runtime: String?, utilization: Double, processes: (Int) -> Int, threads: (Int) -> Int
    ) throws -> Recommendation {
        let records = [1, 2, 4, 8, 10, 16, 32, 64].map { size in
            var record = Self.record(size, min(Double(size) * 62.5, 600), utilization: utilization)
            record.pool = .server
            record.processThreads = threads(size)
            record.watched = .server(ServerFigures(processes: processes(size), interpreterLock: runtime))
            return record
        }
        return try #require(
            Recommender.recommend(
                workload: "server-gunicorn", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
    }

    /// Issue 45, item 1: a gthread worker's 10 threads in one CPython process keep 0.98 of the
    /// 2 cores busy at the knee (49%): the interpreter lock is named, with the formula on
    /// min(2 cores, 1 process) = 1, 1 × (1 + 15) = 16. It was "a lock or other serialization".
    @Test func aServerHeldToOneCoreByItsInterpreterLockIsNamed() throws {
        let r = try Self.serverPlateau(
            runtime: "cpython 3.11", utilization: 0.49, processes: { _ in 1 }, threads: { $0 + 2 })
        #expect(r.recommendedQueueCount == 10)
        #expect(
            r.explanation
                == .knee(
                    .overPredictedInterpreterLock(
                        kneeUtilization: 0.49,
                        lock: InterpreterLockLimit(
                            runtime: "cpython 3.11", processes: 1, threads: 12, coresPerProcess: 0.98, held: true,
                            parallelism: 1,
                            formulaQueueCountExact: 16)), peakMayLieBeyond: nil))
        // Threads inside fewer processes than cores: the lock holds each to one core, even when
        // the knee found each short of it (0.6 cores).
        let few = try Self.serverPlateau(
            runtime: "ruby 3.1", utilization: 0.3, processes: { _ in 1 }, threads: { $0 + 2 })
        guard case .knee(.overPredictedInterpreterLock(_, let lock), _, _) = few.explanation else {
            Issue.record("explanation: \(String(describing: few.explanation))")
            return
        }
        #expect(lock.runtime == "ruby 3.1" && lock.parallelism == 1 && !lock.held)
        #expect(abs(lock.coresPerProcess - 0.6) < 1e-12)
    }

    /// No lock named where it cannot be the cap: sync workers, one CPython process per request
    /// in flight (10 at the knee, 0.06 cores each), and a server whose processes run no runtime
    /// with a lock, keep the plain serialization.
    @Test func serversTheLockDoesNotHoldKeepSerialization() throws {
        let sync = try Self.serverPlateau(
            runtime: "cpython 3.11", utilization: 0.3, processes: { $0 }, threads: { $0 + 1 })
        #expect(sync.explanation == .knee(.overPredictedSerialization(kneeUtilization: 0.3), peakMayLieBeyond: nil))
        let unlocked = try Self.serverPlateau(
            runtime: nil, utilization: 0.49, processes: { _ in 1 }, threads: { $0 + 2 })
        #expect(
            unlocked.explanation == .knee(.overPredictedSerialization(kneeUtilization: 0.49), peakMayLieBeyond: nil))
    }

    /// The same plateau from a pool of connections to a database on this machine: the pool's
    /// threads keep 30% of the 2 cores busy, its backends 1.4 cores (70%). Together the cores
    /// are full: the CPU, not a lock, caps throughput, as the database section says from the
    /// backends' samples; with backends at 0.2 cores the 40% still blames serialization.
    @Test func aLocalDatabasesBackendsCountAsTheCPUTheyShare() throws {
        func records(backendCores: Double) -> [TrialRecord] {
            [1, 2, 4, 8, 10, 16, 32, 64].map { size in
                var record = Self.record(size, min(Double(size) * 62.5, 600), utilization: 0.3)
                record.watched = .database(DatabaseFigures(backendCPUSeconds: backendCores, snapshots: 40))
                return record
            }
        }
        let busy = try #require(
            Recommender.recommend(
                workload: "orders", records: records(backendCores: 1.4), lowLoad: Self.lowLoad, cores: 2,
                targetUtilization: 1))
        #expect(busy.recommendedQueueCount == 10)
        guard case .knee(.overPredictedCPU(let machine, _), _, _) = busy.explanation else {
            Issue.record("explanation: \(String(describing: busy.explanation))")
            return
        }
        #expect(abs(machine - 1.0) < 1e-9)
        let idle = try #require(
            Recommender.recommend(
                workload: "orders", records: records(backendCores: 0.2), lowLoad: Self.lowLoad, cores: 2,
                targetUtilization: 1))
        guard case .knee(.overPredictedSerialization(let pool), _, _) = idle.explanation else {
            Issue.record("explanation: \(String(describing: idle.explanation))")
            return
        }
        #expect(pool == 0.3)
    }

    @Test func coarseSizesAreBlamedBeforeTheModel() throws {
        let records = [1, 16, 64, 128].map { Self.record($0, min(Double($0) / 0.016, 2000)) }
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1))
        #expect(r.kneeQueueCount == 64)
        guard case .knee(.tooCoarse(below: 16, above: 64, step: 6), _, _) = r.explanation else {
            Issue.record("explanation: \(String(describing: r.explanation))")
            return
        }
    }

    @Test func targetUtilizationScalesBoth() throws {
        let sizes = [1, 2, 4, 8, 12, 16, 20, 24, 32, 64]
        let records = sizes.map { Self.record($0, min(Double($0) / 0.016, 2000)) }
        let r = try #require(
            Recommender.recommend(
                workload: "io", records: records, lowLoad: Self.lowLoad, cores: 2, targetUtilization: 0.5))
        #expect(r.formulaQueueCount == 16)
        // Smallest size reaching 0.5 × 0.95 × 2000 = 950/s: 16 gives 1000.
        #expect(r.kneeQueueCount == 16)
    }

    @Test func noRecordsNoRecommendation() {
        #expect(
            Recommender.recommend(workload: "io", records: [], lowLoad: Self.lowLoad, cores: 2, targetUtilization: 1)
                == nil)
    }
}

@Suite struct ErrorTests {
    @Test func exitCodesAreDistinctPerKind() {
        let errors: [PoolSizeError] = [
            .invalidOption(flag: "--x", message: ""), .invalidSpec(file: "f", field: nil, message: ""),
            .inputNotFound(path: "p", hint: ""), .cannotWrite(path: "p", reason: ""), .integrityViolated(details: ""),
            .regression(details: ""), .incomparable(details: ""), .measurementFailed(""),
        ]
        #expect(Set(errors.map(\.exitCode)).count == errors.count)
        #expect(errors.allSatisfy { !$0.description.contains("\n") })
    }

    @Test func cannotWriteNamesTheFix() {
        #expect(
            PoolSizeError.cannotWrite(path: "/ro/run", reason: "Read-only file system").description
                == "error: cannot write /ro/run: Read-only file system; choose a writable location (`runDirectory` for the run directory, `plotsDirectory` for the charts)"
        )
        // A full disk is writable: the fix is space, not another flag.
        #expect(
            PoolSizeError.cannotWrite(path: "/data/run/trials.csv", reason: "No space left on device").description
                == "error: cannot write /data/run/trials.csv: No space left on device; free space on that file system, or write elsewhere"
        )
    }

    @Test func tierAliases() {
        #expect(QoSTier(name: "high") == .userInitiated)
        #expect(QoSTier(name: "low") == .utility)
        #expect(QoSTier(name: "default") == .default)
        #expect(QoSTier(name: "Background") == .background)
        #expect(QoSTier(name: "urgent") == nil)
    }
}

@Suite struct RecommendAllTests {
    static func record(_ pool: PoolKind, _ primitive: PrimitiveKind, _ size: Int, _ throughput: Double) -> TrialRecord {
        var r = RecommenderTests.record(size, throughput)
        r.pool = pool
        r.primitive = primitive
        return r
    }

    @Test func namesTheBestCombinationAndTheGaps() throws {
        let sizes = [1, 2, 4, 8, 16, 32]
        let records =
            sizes.map { Self.record(.queuePool, .none, $0, min(Double($0) * 100, 1000)) }
            + sizes.map { Self.record(.queuePool, .mutex, $0, min(Double($0) * 100, 800)) }
            + sizes.map { Self.record(.threadPool, .none, $0, min(Double($0) * 100, 1000)) }
        let set = try #require(
            Recommender.recommendAll(
                workload: "io", records: records, lowLoad: RecommenderTests.lowLoad, cores: 2, targetUtilization: 1))
        #expect(set.combinations.count == 3)
        // Both pools reach 1000/s at 16; ties go to the first in axis order.
        #expect(set.best.combination == Combination(pool: .queuePool, qos: .default, primitive: .none))
        #expect(set.best.recommendedQueueCount == 16)
        let mutex = try #require(set.combinations.first { $0.primitive == .mutex })
        #expect(mutex.recommendedQueueCount == 8)
        #expect(mutex.curve?.kneeThroughputPerSecond == 800)
        // Output words the verdict (SizingProseTests).
        #expect(set.verdict.isEmpty)
    }
}

/// A trial above the physical ceiling never becomes the peak or the knee.
@Suite struct InvalidTrialRecommenderTests {
    @Test func impossibleThroughputDecidesNothing() throws {
        func record(_ size: Int, _ throughput: Double, invalid: String? = nil) -> TrialRecord {
            TrialRecord(
                runID: "r", workload: "io", pool: .threadPool, qos: .default, primitive: .none, poolSize: size,
                repetition: 1,
                tasks: throughput / 2, wallSeconds: 0.5, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
                waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.9, peakConcurrency: size,
                threads: size,
                effectiveNice: 0, integrity: .notApplicable, invalidReason: invalid)
        }
        let records = [
            record(8, 500), record(16, 1000), record(32, 1950), record(64, 1990),
            record(2048, 2888, invalid: "above the ceiling"),
        ]
        let lowLoad = LowLoadEstimate(
            tasks: 50, seconds: 1, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, ratio: nil)
        let best = try #require(
            Recommender.recommendAll(
                workload: "io", records: records, lowLoad: lowLoad, cores: 2, targetUtilization: 1)?.best)
        #expect(best.peakQueueCount == 64)
        #expect(best.recommendedQueueCount == 32)
    }
}

/// Below U = 1 the reason states the threshold the knee met, not the tolerance alone.
@Suite struct TargetUtilizationReasonTests {
    @Test func reasonStatesUTimesOneMinusTolerance() throws {
        func record(_ size: Int, _ throughput: Double) -> TrialRecord {
            TrialRecord(
                runID: "r", workload: "io", pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
                repetition: 1,
                tasks: throughput / 2, wallSeconds: 0.5, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
                waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.9, peakConcurrency: size,
                threads: size,
                effectiveNice: 0, integrity: .notApplicable)
        }
        let records = [1, 8, 16, 24, 32, 40].map { record($0, min(Double($0) * 62.5, 2000)) }
        let lowLoad = LowLoadEstimate(
            tasks: 50, seconds: 1, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, ratio: nil)
        let r = try #require(
            Recommender.recommend(workload: "io", records: records, lowLoad: lowLoad, cores: 2, targetUtilization: 0.5))
        #expect(r.kneeQueueCount == 16)
        #expect(r.targetUtilization == 0.5 && r.curve?.tolerance == 0.05)
    }
}
