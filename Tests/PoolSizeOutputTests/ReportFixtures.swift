import Foundation
import PoolSizeModel
import PoolSizeStats
@testable import PoolSizeOutput

/// Small fixed runs for golden tests of charts and reports. Every number is written down or
/// follows from the ideal closed loop X(N) = min(N/(W+C), cores/C) with W = 3 ms, C = 1 ms on
/// 2 cores (knee at 8): nothing is measured, so the golden text never depends on the machine.
enum ReportFixtures {
    static let runID = "20261122-051503-io"

    static func record(
        _ size: Int, rep: Int,
        combination: Combination = Combination(pool: .queuePool, qos: .default, primitive: .none),
        scale: Double = 1, spread: Double = 0.01, reached: Int? = nil, nice: Int = 0, latency: Bool = true
    ) -> TrialRecord {
        let ideal = min(Double(size) * 250, 2000) * scale
        let throughput = ideal * (rep == 1 ? 1 - spread : 1 + spread)
        let busy = min(Double(size) / 8, 1)
        let stretch = 1 + Double(max(0, size - 8)) / 8
        return TrialRecord(
            runID: runID, workload: "io", pool: combination.pool, qos: combination.qos,
            primitive: combination.primitive,
            poolSize: size, repetition: rep, tasks: throughput / 2, wallSeconds: 0.5, throughputPerSecond: throughput,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 3000 * stretch, waitCPURatio: 3 * stretch,
            utilization: busy,
            peakConcurrency: reached ?? size, threads: reached ?? size, effectiveNice: nice,
            integrity: combination.primitive == .none ? .notApplicable : .ok,
            criticalSections: combination.primitive == .none ? 0 : Int(throughput / 2),
            latency: latency
                ? LatencyPercentiles(
                    p50: 4000 * stretch, p90: 5000 * stretch, p99: 6000 * stretch, p999: 7000 * stretch,
                    max: 8000 * stretch) : LatencyPercentiles(),
            execution: LatencyPercentiles(p50: 4000, p99: 4500),
            voluntaryContextSwitches: Int(throughput), involuntaryContextSwitches: size > 8 ? 100 * (size - 8) : 0,
            maxRSSKilobytes: 9000, processThreads: size + 4, otherLoad: 0.01)
    }

    /// The plan of `info`: the io workload at sizes 1–12 of the queue pool, 2 repetitions after 1 warm-up.
    static var plan: SweepPlan {
        SweepPlan(
            runID: runID,
            spec: WorkloadSpec(name: "io", description: "test", cpuMicroseconds: 1000, waitMicroseconds: 3000),
            sizes: .explicit([1, 2, 4, 6, 8, 10, 12]), repetitions: 2, warmupTrials: 1, cores: 2, seed: 42)
    }

    static var info: RunInfo {
        RunInfo(
            .sweep(plan), poolsizeVersion: "0.1.0",
            commandLine: ["/usr/local/bin/poolsize", "sweep", "--workload", "io", "--sizes", "1,2,4,6,8,10,12"],
            machine: MachineFacts(
                cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil), cpuModel: "Test CPU",
                kernel: "Linux 6.1.0 x86_64",
                swiftVersion: "6.3", timerSlackNanoseconds: 50_000,
                effectiveNiceByTier: [
                    "user-interactive": 0, "user-initiated": 0, "default": 0, "utility": 2, "background": 10,
                ], hostname: "test"))
    }

    /// machine.json as `sweep` writes it, for a run directory written by hand: a plan of `spec`
    /// (`auto` sizes) over these axes, on a machine of `cores`.
    static func machineJSON(
        runID: String, spec: WorkloadSpec = WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
        cores: CoreCount, cpuModel: String = "", pools: [PoolKind] = [.queuePool], tiers: [QoSTier] = [.default],
        primitives: [PrimitiveKind] = [.none]
    ) -> String {
        let plan = SweepPlan(
            runID: runID, spec: spec, sizes: .auto, cores: cores.effective, seed: 42, pools: pools, tiers: tiers,
            primitives: primitives)
        let machine = MachineFacts(
            cores: cores, cpuModel: cpuModel, kernel: "", swiftVersion: "", timerSlackNanoseconds: nil,
            effectiveNiceByTier: [:], hostname: "")
        return JSONExport.serialize(RunInfo(.sweep(plan), poolsizeVersion: "0.1.0", machine: machine))
    }

    static func recommendation(_ combination: Combination?, recommended: Int = 8, peak: Double = 2020, peakAt: Int = 10)
        -> Recommendation
    {
        var r = Recommendation(
            workload: "io", cores: 2, waitCPURatio: 3, waitCPURatioLower: 2.9, waitCPURatioUpper: 3.1,
            specWaitCPURatio: 3,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 3000, targetUtilization: 1,
            formulaQueueCountExact: 8,
            formulaQueueCountStandardError: 0.2, formulaQueueCount: 8, recommendedQueueCount: recommended,
            sizing: .knee(
                .init(
                    kneeQueueCount: recommended, kneeThroughputPerSecond: 2000, peakQueueCount: peakAt,
                    peakThroughputPerSecond: peak, tolerance: 0.05)),
            reason:
                "Measured and predicted agree: 8 queues reach within 5.00% of the peak 2020 tasks/s, and the formula gives 8.00 (2 cores × U 1.00 × (1 + W/C 3.00)), 0% apart."
        )
        if let combination {
            r.pool = combination.pool
            r.qos = combination.qos
            r.primitive = combination.primitive
        }
        return r
    }

    static let usl = USLFit(
        sigma: 0.02, kappa: 0.004, lambda: 260, sigmaStandardError: 0.01, kappaStandardError: 0.001,
        lambdaStandardError: 12, rSquared: 0.97)

    /// One combination, sizes 1–12, two repetitions; N = 12 varies by 15% between them.
    static var single: RunData {
        let sizes = [1, 2, 4, 6, 8, 10, 12]
        let records = sizes.flatMap { size in [1, 2].map { record(size, rep: $0, spread: size == 12 ? 0.15 : 0.01) } }
        var r = recommendation(nil)
        r.editCurve { $0.usl = usl }
        return RunData(
            runID: runID, records: records, info: info,
            lowLoad: LowLoadEstimate(
                tasks: 50, seconds: 0.2, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 3000, ratio: nil),
            recommendation: RecommendationSet(best: r, combinations: [r], verdict: ""))
    }

    /// Several axes: two primitives and two tiers of the queue pool, a global queue that never
    /// runs more than 3 tasks at once, a tier whose nice did not take effect, and contention shares.
    static var axes: RunData {
        let sizes = [1, 2, 4, 8]
        let best = Combination(pool: .queuePool, qos: .default, primitive: .none)
        let mutex = Combination(pool: .queuePool, qos: .default, primitive: .mutex)
        let initiated = Combination(pool: .queuePool, qos: .userInitiated, primitive: .none)
        let global = Combination(pool: .globalQueue, qos: .default, primitive: .none)
        var records: [TrialRecord] = []
        for size in sizes {
            for rep in [1, 2] {
                records.append(record(size, rep: rep, combination: best))
                records.append(record(size, rep: rep, combination: mutex, scale: 0.8))
                records.append(record(size, rep: rep, combination: initiated, scale: 0.95))
                records.append(
                    record(min(size, 3), rep: rep, combination: global, scale: 1, reached: min(size, 3)).with(
                        poolSize: size))
            }
        }
        var top = recommendation(best, peakAt: 8)
        top.editCurve { $0.usl = usl }
        var others: [Recommendation] = []
        for (combination, scale) in [(mutex, 0.8), (initiated, 0.95), (global, 0.375)] {
            var r = recommendation(
                combination, recommended: combination == global ? 4 : 8, peak: 2000 * scale, peakAt: 8)
            r.editCurve { $0.uslRefusal = "The USL fit needs throughput at 6 or more distinct pool sizes, but got 4." }
            others.append(r)
        }
        let set = RecommendationSet(
            best: top, combinations: [top] + others,
            verdict: "Best: queue-pool/default/none with 8 queues at 2020 tasks/s.")
        var info = info
        info.plan?.pools = [.queuePool, .globalQueue]
        info.plan?.tiers = [.default, .userInitiated]
        info.plan?.primitives = [.none, .mutex]
        return RunData(
            runID: runID, records: records, info: info,
            lowLoad: LowLoadEstimate(
                tasks: 50, seconds: 0.2, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 3000, ratio: nil),
            recommendation: set,
            contention: [
                TierShare(qos: .default, throughputPerSecond: 1000, share: 0.5, effectiveNice: 0),
                TierShare(qos: .userInitiated, throughputPerSecond: 1000, share: 0.5, effectiveNice: 0),
            ])
    }

    /// `Tests/Fixtures/<path>` in the source tree.
    static func fixture(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(path)
    }
}

extension TrialRecord {
    func with(poolSize: Int) -> TrialRecord {
        var copy = self
        copy.poolSize = poolSize
        return copy
    }
}
