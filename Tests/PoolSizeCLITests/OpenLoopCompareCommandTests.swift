import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import PoolSizeOutput
import Testing

/// An open-loop run directory from fixed numbers, as `sweep` writes it: trials.csv, machine.json
/// (with its `arrival`) and lowload.json. Tasks of C 1 ms + W 15 ms at 1000/s, objective p99 ≤ 40 ms.
struct OpenLoopRunDirectory {
    let url: URL
    var path: String { url.path }

    /// `p99`: per size, the p99 in ms of its one repetition; a size below 17 falls behind.
    init(id: String, p99: [Int: Double], slo: Double? = 40_000, rates: [Double] = [1000]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-olcompare-\(UUID().uuidString)")
            .appendingPathComponent(id)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let records = p99.keys.sorted().map { size -> TrialRecord in
            let carried = size < 17 ? Double(size) / 16 : 1
            let ms = p99[size]!
            var r = TrialRecord(
                runID: id, workload: "io", pool: .queuePool, qos: .default, primitive: .none, poolSize: size,
                repetition: 1,
                tasks: 1000 * carried * 2, wallSeconds: 2, throughputPerSecond: 1000 * carried,
                cpuMicrosecondsPerTask: 1000,
                waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.5 * carried, peakConcurrency: size,
                threads: size,
                effectiveNice: 0, integrity: .notApplicable,
                latency: LatencyPercentiles(
                    p50: ms * 600, p90: ms * 800, p99: ms * 1000, p999: ms * 1100, max: ms * 1200))
            r.loop = .open(
                OpenLoopFigures(
                    arrivalRate: 1000, offeredPerSecond: 1000, achievedPerSecond: 1000 * carried, backlogMean: 20,
                    backlogMax: 40, backlogGrowth: carried < 0.99 ? 500 : 0, stable: carried >= 0.99))
            return r
        }
        try TrialsCSV.serialize(records).write(
            to: url.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        var plan = SweepPlan(
            runID: id, spec: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 15000),
            sizes: .explicit(p99.keys.sorted()), repetitions: 1, cores: 2, seed: 42)
        plan.load = .open(
            ArrivalPlan(
                rates: rates.map(ArrivalRate.init(perSecond:)), process: .poisson, latencySLOMicroseconds: slo,
                sloPercentile: 99))
        let info = RunInfo(
            .sweep(plan), poolsizeVersion: "0.1.0",
            machine: MachineFacts(
                cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil), cpuModel: "Fixture CPU", kernel: "Linux",
                swiftVersion: "6.3", timerSlackNanoseconds: nil, effectiveNiceByTier: [:], hostname: "fixture"),
            sizes: p99.keys.sorted())
        try JSONExport.serialize(info).write(
            to: url.appendingPathComponent("machine.json"), atomically: true, encoding: .utf8)
        let lowLoad = LowLoadEstimate(
            waitMicroseconds: Array(repeating: 15000, count: 50), cpuMicroseconds: Array(repeating: 1000, count: 50),
            seconds: 0.8)
        try JSONExport.serialize(lowLoad).write(
            to: url.appendingPathComponent("lowload.json"), atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
}

/// `poolsize compare`, `report` and `export` on open-loop run directories.
@Suite struct OpenLoopCompareCommandTests {
    static let base: [Int: Double] = [8: 1160, 17: 43, 20: 23.3, 24: 21]

    @Test func sameVerdictsExitZero() throws {
        let base = try OpenLoopRunDirectory(id: "base", p99: Self.base)
        let current = try OpenLoopRunDirectory(id: "head", p99: [8: 1200, 17: 44, 20: 24, 24: 20.5])
        defer { base.remove(); current.remove() }
        #expect(runCLI(["compare", base.path, current.path]) == (0, []))
    }

    /// 20 met 40 ms and misses it now: exit 2 with the one-line finding, in Markdown and in JSON.
    @Test func aSizeThatLostTheObjectiveExitsTwo() throws {
        let base = try OpenLoopRunDirectory(id: "base", p99: Self.base)
        let current = try OpenLoopRunDirectory(id: "head", p99: [8: 1160, 17: 43, 20: 45, 24: 21])
        defer { base.remove(); current.remove() }
        let result = runCLI(["compare", base.path, current.path])
        #expect(result.code == 2)
        #expect(
            result.errors == [
                "regression: The open-loop sizing regressed: queue-pool/default/none N = 20 at 1000/s met p99 ≤ 40.0 ms in the base run (23.3 ms) and misses it now (45.0 ms)."
            ])
        #expect(runCLI(["compare", base.path, current.path, "--format", "json"]).code == 2)
    }

    @Test func openAgainstClosedOrAnotherObjectiveExitsThree() throws {
        let base = try OpenLoopRunDirectory(id: "base", p99: Self.base)
        let closed = try FixtureRun(
            id: "closed",
            rows: [
                (8, [520, 531, 509], [21_000, 21_300, 20_700]), (17, [1010, 1032, 991], [21_000, 21_300, 20_700]),
            ])
        let looser = try OpenLoopRunDirectory(id: "looser", p99: Self.base, slo: 50_000)
        defer { base.remove(); closed.remove(); looser.remove() }
        #expect(
            runCLI(["compare", base.path, closed.path]) == (
                3,
                [
                    "error: runs cannot be compared: base base is an open-loop run (poisson arrivals at 1000/s, p99 ≤ 40.0 ms) and current closed a closed loop; compare two runs of the same kind"
                ]
            ))
        #expect(
            runCLI(["compare", base.path, looser.path]) == (
                3,
                [
                    "error: runs cannot be compared: the open-loop runs differ in objective p99 ≤ 40.0 ms vs p99 ≤ 50.0 ms (base base, current looser); compare runs swept with the same --arrival-rate, --arrivals, --latency-slo and --slo-percentile"
                ]
            ))
    }

    /// `report` on an open-loop run writes the open-loop report and its latency chart, not the
    /// closed loop's throughput chart.
    @Test func reportWritesTheOpenLoopReportAndCharts() throws {
        let run = try OpenLoopRunDirectory(id: "base", p99: Self.base)
        defer { run.remove() }
        let plots = run.url.deletingLastPathComponent().appendingPathComponent("plots")
        let result = runCLI(["report", run.path, "--plots", plots.path])
        #expect(result.code == 0, "\(result.errors)")
        let markdown = try String(contentsOf: run.url.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("## Open loop"))
        #expect(markdown.contains("**20 queues** for the io workload at 1000/s"))
        #expect(FileManager.default.fileExists(atPath: plots.appendingPathComponent("latency-size.gp").path))
        #expect(!FileManager.default.fileExists(atPath: plots.appendingPathComponent("throughput.gp").path))
    }

    /// The side-by-side report compares throughput curves and the formula: open-loop runs are
    /// refused with one line saying what to do instead.
    @Test func sideBySideReportRefusesOpenLoopRuns() throws {
        let a = try OpenLoopRunDirectory(id: "a", p99: Self.base)
        let b = try OpenLoopRunDirectory(id: "b", p99: Self.base)
        defer { a.remove(); b.remove() }
        let out = a.url.deletingLastPathComponent().appendingPathComponent("side")
        let result = runCLI(["report", a.path, b.path, "--out", out.path])
        #expect(
            result == (
                3,
                [
                    "error: runs cannot be compared: a is an open-loop run (--arrival-rate), and the side-by-side report compares closed-loop throughput curves; report each open-loop run alone ('poolsize report DIR') or set two of them side by side with 'poolsize compare BASE CURRENT'"
                ]
            ))
    }

    @Test func exportCarriesTheObjective() throws {
        let run = try OpenLoopRunDirectory(id: "base", p99: Self.base)
        defer { run.remove() }
        let file = run.url.appendingPathComponent("metrics.txt")
        #expect(runCLI(["export", run.path, "--to", "openmetrics", "--output", file.path]) == (0, []))
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(
            text.contains(
                "poolsize_slo_met{workload=\"io\",host=\"fixture\",pool=\"queue-pool\",qos=\"default\",primitive=\"none\",rate=\"1000\",size=\"20\"} 1\n"
            ))
        let smaller = run.url.appendingPathComponent("smaller.json")
        #expect(runCLI(["export", run.path, "--to", "github-benchmark-smaller", "--output", smaller.path]) == (0, []))
        #expect(
            try String(contentsOf: smaller, encoding: .utf8).contains(
                "\"name\" : \"io queue-pool/default/none p99 latency at the recommended size\""))
    }
}
