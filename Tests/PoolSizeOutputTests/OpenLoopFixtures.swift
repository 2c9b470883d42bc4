import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput

/// Open-loop runs written down by hand for golden tests: a task of C 1 ms + W 15 ms (16 ms at
/// every percentile), a p99 objective of 40 ms. Every verdict is known from the numbers here,
/// and the recommendation is what `Recommender` makes of them: nothing is measured.
enum OpenLoopFixtures {
    static let runID = "20261123-072103-io"
    static let lowLoad = LowLoadEstimate(
        waitMicroseconds: Array(repeating: 15000, count: 50), cpuMicroseconds: Array(repeating: 1000, count: 50),
        seconds: 0.8)

    /// One trial: `carried` of `rate`, p99 `p99` ms (p50 0.6 ×, p90 0.8 ×, p99.9 1.1 ×, max 1.2 ×).
    static func trial(
        _ size: Int, rate: Double, carried: Double = 1, p99: Double, rep: Int = 1, stable: Bool? = nil,
        unfinished: Int = 0, lag: Double = 200, otherLoad: Double = 0.02
    ) -> TrialRecord {
        var r = TrialRecord(
            runID: runID, workload: "io", pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
            repetition: rep,
            tasks: rate * carried * 2, wallSeconds: 2, throughputPerSecond: rate * carried,
            cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: rate * carried * 0.001 / 2,
            peakConcurrency: size, threads: size,
            effectiveNice: 0, integrity: .notApplicable,
            latency: LatencyPercentiles(
                p50: p99 * 600, p90: p99 * 800, p99: p99 * 1000, p999: p99 * 1100, max: p99 * 1200),
            execution: LatencyPercentiles(p50: 16000, p99: 16500), otherLoad: otherLoad)
        let kept = stable ?? (carried >= 0.99)
        r.loop = .open(
            OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: rate), offeredPerSecond: rate, achievedPerSecond: rate * carried,
                backlogMean: kept ? rate * p99 / 1000 * 0.5 : rate * 0.3,
                backlogMax: kept ? Int(rate * p99 / 1000) : Int(rate * 0.6),
                backlogGrowth: kept ? 0 : rate * 0.2, stable: kept, unfinished: unfinished,
                dispatchLagP99Microseconds: lag))
        return r
    }

    static func info(rates: [Double], sizes: [Int], slo: Double? = 40_000, repetitions: Int = 1) -> RunInfo {
        var info = ReportFixtures.info
        var plan = ReportFixtures.plan
        plan.runID = runID
        plan.spec = WorkloadSpec(name: "io", description: "IO-bound", cpuMicroseconds: 1000, waitMicroseconds: 15000)
        plan.sizes = .explicit(sizes)
        plan.repetitions = repetitions
        plan.load = .open(
            ArrivalPlan(
                rates: rates.map(ArrivalRate.init(perSecond:)), process: .poisson, latencySLOMicroseconds: slo,
                sloPercentile: 99))
        info.plan = plan
        info.commandLine = [
            "/usr/local/bin/poolsize", "sweep", "--workload", "io", "--arrival-rate",
            rates.count == 1 ? "1000/s" : "500/s...1500/s:500", "--latency-slo", "40ms",
        ]
        info.sizes = sizes
        return info
    }

    static func run(_ records: [TrialRecord], info: RunInfo) -> RunData {
        let set = Recommender.recommendAll(
            workload: "io", records: records, lowLoad: lowLoad, cores: 2, targetUtilization: 1,
            load: info.plan?.load ?? .closed
        ).map { SizingProse.worded($0) }
        return RunData(runID: runID, records: records, info: info, lowLoad: lowLoad, recommendation: set)
    }

    /// One rate, 1000/s: 8 and 16 fall behind, 17 keeps up but misses (43 ms), 20 meets (23.3 ms)
    /// and so does 24 (21 ms). Two repetitions; 17's second one stalls at the stop (unfinished).
    static var single: RunData {
        let records = [
            trial(8, rate: 1000, carried: 0.5, p99: 1160),
            trial(8, rate: 1000, carried: 0.49, p99: 1180, rep: 2, unfinished: 480),
            trial(16, rate: 1000, carried: 0.96, p99: 1950), trial(16, rate: 1000, carried: 0.95, p99: 1990, rep: 2),
            trial(17, rate: 1000, p99: 43), trial(17, rate: 1000, p99: 38, rep: 2),
            trial(20, rate: 1000, p99: 23.3), trial(20, rate: 1000, p99: 22.1, rep: 2),
            trial(24, rate: 1000, p99: 21), trial(24, rate: 1000, p99: 20.2, rep: 2),
        ]
        return run(records, info: info(rates: [1000], sizes: [8, 16, 17, 20, 24], repetitions: 2))
    }

    /// 500/s to 1500/s in steps of 500, sizes 8, 17, 24 and 32, one repetition: the smallest size
    /// meeting 40 ms is 17 at 500/s, 24 at 1000/s and 32 at 1500/s.
    static var range: RunData {
        let table: [(Double, Int, Double, Double)] = [  // rate, size, carried, p99 ms
            (500, 8, 0.97, 900), (500, 17, 1, 18), (500, 24, 1, 17), (500, 32, 1, 16.5),
            (1000, 8, 0.5, 1160), (1000, 17, 1, 43), (1000, 24, 1, 21), (1000, 32, 1, 18),
            (1500, 8, 0.33, 1400), (1500, 17, 0.7, 1300), (1500, 24, 0.98, 800), (1500, 32, 1, 26),
        ]
        let records = table.map { trial($0.1, rate: $0.0, carried: $0.2, p99: $0.3) }
        return run(records, info: info(rates: [500, 1000, 1500], sizes: [8, 17, 24, 32]))
    }

    /// The console summary of `run` (what `sweep` prints and writes to summary.txt).
    static func console(_ run: RunData) -> String {
        ConsoleSummary.render(
            RunAnalysis(run), spec: run.plan!.spec, cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil),
            lowLoad: lowLoad)
    }
}

extension OpenLoopFixtures {
    /// `run` with the trials at `size` (and `rate`, when given) set to a p99 of `p99` ms, kept up
    /// or not, and the recommendation made again.
    static func with(_ run: RunData, size: Int, rate: Double? = nil, p99: Double, stable: Bool = true) -> RunData {
        let records = run.records.map { r -> TrialRecord in
            guard r.poolSize == size, rate.map({ ArrivalRate(perSecond: $0) == r.arrivalRate }) ?? true else {
                return r
            }
            var r = r
            r.latency = LatencyPercentiles(
                p50: p99 * 600, p90: p99 * 800, p99: p99 * 1000, p999: p99 * 1100, max: p99 * 1200)
            r.loop.updateFigures { $0.stable = stable }
            return r
        }
        return OpenLoopFixtures.run(records, info: run.info!)
    }

    /// `run`'s files as `sweep` writes them, in a scratch directory.
    static func directory(_ run: RunData, id: String) throws -> ScratchRunDirectory {
        let dir = try ScratchRunDirectory()
        var info = run.info!
        info.plan?.runID = id
        try dir.write(
            "trials.csv",
            TrialsCSV.serialize(
                run.records.map {
                    var r = $0; r.runID = id; return r
                }))
        try dir.write("machine.json", JSONExport.serialize(info))
        if let lowLoad = run.lowLoad { try dir.write("lowload.json", JSONExport.serialize(lowLoad)) }
        if let set = run.recommendation { try dir.write("recommendation.json", JSONExport.serialize(set)) }
        return dir
    }
}

extension OpenLoopFixtures {
    /// `run` with its plan's arrivals changed by `change` (rates, process, objective).
    static func changingArrival(_ run: RunData, _ change: (inout ArrivalPlan) -> Void) -> RunData {
        var run = run
        guard var arrival = run.plan?.load.arrival else { return run }
        change(&arrival)
        run.info?.plan?.load = .open(arrival)
        return run
    }
}
