import Foundation
@testable import PoolSizeCLI
import PoolSizeModel
import PoolSizeOutput
import Testing

/// A run directory as `poolsize sweep` writes it: trials.csv with every documented column
/// (results/README.md) and machine.json, from fixed numbers.
struct FixtureRun {
    let url: URL
    var path: String { url.path }

    /// `rows`: (pool size, throughput per repetition, p99 latency in µs per repetition).
    init(
        id: String, workload: String = "io", cores: Int = 2, cpuMicroseconds: Double = 1000,
        target: SweepTarget = .inProcess, rows: [(size: Int, throughput: [Double], p99: [Double])]
    ) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-compare-\(UUID().uuidString)")
            .appendingPathComponent(id)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var csv =
            "run_id,workload,pool,qos,primitive,pool_size,repetition,tasks,wall_s,throughput_per_s,cpu_us_per_task,wait_us_per_task,wait_cpu_ratio,utilization,peak_concurrency,threads,effective_nice,integrity,critical_sections,latency_p50_us,latency_p90_us,latency_p99_us,latency_p999_us,latency_max_us,exec_p50_us,exec_p99_us,voluntary_ctx_switches,involuntary_ctx_switches,max_rss_kb,process_threads,other_load,errors,invalid_reason,arrival_rate_per_s,offered_per_s,backlog_mean,backlog_max,backlog_growth,stable,unfinished,dispatch_lag_p99_us,size_steps\n"
        for row in rows {
            for (index, (throughput, p99)) in zip(row.throughput, row.p99).enumerated() {
                let tasks = String(format: "%.3f", throughput * 0.48)
                csv +=
                    "\(id),\(workload),queue-pool,default,none,\(row.size),\(index + 1),\(tasks),0.480000,\(String(format: "%.3f", throughput)),1000.000,15000.000,15.0000,0.9500,\(row.size),\(row.size),0,n/a,0,16500.0,17800.0,\(String(format: "%.1f", p99)),\(String(format: "%.1f", p99 * 1.1)),\(String(format: "%.1f", p99 * 1.2)),16100.0,16900.0,2300,40,9120,37,0.0100,0,,,,,,,,,,\n"
            }
        }
        try csv.write(to: url.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        let machine = Self.machineJSON(
            id: id, spec: WorkloadSpec(name: workload, cpuMicroseconds: cpuMicroseconds, waitMicroseconds: 15000),
            cores: cores, target: target)
        try machine.write(to: url.appendingPathComponent("machine.json"), atomically: true, encoding: .utf8)
    }

    /// machine.json as `sweep` writes it: a plan of `spec` on the queue pool (`auto` sizes), on
    /// a machine of `cores` cores, against `target`.
    static func machineJSON(id: String, spec: WorkloadSpec, cores: Int, target: SweepTarget = .inProcess) -> String {
        var plan = SweepPlan(runID: id, spec: spec, sizes: .auto, cores: cores, seed: 42)
        plan.target = target
        let machine = MachineFacts(
            cores: CoreCount(online: cores, affinity: cores, cgroupQuota: nil), cpuModel: "Fixture CPU",
            kernel: "Linux", swiftVersion: "6.3", timerSlackNanoseconds: nil, effectiveNiceByTier: [:], hostname: "")
        return JSONExport.serialize(RunInfo(.sweep(plan), poolsizeVersion: "0.1.0", machine: machine))
    }

    func remove() { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
}

@Suite struct CompareCommandTests {
    static let latency = [21_000.0, 21_300, 20_700]
    /// Three repetitions at four sizes, a few percent of spread: a typical small sweep.
    static let baseRows: [(size: Int, throughput: [Double], p99: [Double])] = [
        (8, [520, 531, 509], latency), (16, [1010, 1032, 991], latency), (32, [1950, 1990, 1921], latency),
        (48, [1980, 2015, 1944], latency),
    ]

    /// A current run whose throughput collapsed to zero is a regression, never "No regression".
    @Test(arguments: [[0.0, 0, 0]])
    func collapsedThroughputExitsTwo(throughput: [Double]) throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        let current = try FixtureRun(id: "head", rows: Self.baseRows.map { ($0.size, throughput, $0.p99) })
        defer { base.remove(); current.remove() }
        let result = runCLI(["compare", base.path, current.path])
        #expect(result.code == 2)
        #expect(
            result.errors.first?.hasPrefix(
                "regression: 4 of 4 configurations regressed: throughput -100.0% at queue-pool/default/none/8 (no positive throughput in the current run)"
            ) == true, "\(result.errors)")
        let json = runCLI(["compare", base.path, current.path, "--format", "json"])
        #expect(json.code == 2)
    }

    /// A throughput no trial can measure (negative, not a number) is a damaged file, refused as
    /// every reader refuses it (FiniteNumber), naming the line and column.
    /// (The fixture's tasks column is throughput × 0.48: negative too, and read first.)
    @Test(arguments: [
        ([-5.0, -1, -3], "tasks", "'-2.400' is not a number ≥ 0"),
        ([Double.nan, .nan, .nan], "throughput_per_s", "'nan' is not a finite decimal number"),
    ])
    func unmeasurableThroughputIsRefused(throughput: [Double], column: String, message: String) throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        let current = try FixtureRun(id: "head", rows: Self.baseRows.map { ($0.size, throughput, $0.p99) })
        defer { base.remove(); current.remove() }
        let result = runCLI(["compare", base.path, current.path])
        #expect(result.code == 65)
        #expect(result.errors == ["error: \(current.path)/trials.csv: line 2, column '\(column)': \(message)"])
    }

    @Test func twentyPercentThroughputDropExitsTwo() throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        // Size 32 loses 20% (1950 → 1560 median); the others move within ±2%.
        let current = try FixtureRun(
            id: "head",
            rows: [
                (8, [525, 520, 512], Self.latency), (16, [1000, 1025, 1012], Self.latency),
                (32, [1560, 1592, 1537], Self.latency), (48, [1990, 1960, 2001], Self.latency),
            ])
        defer { base.remove(); current.remove() }
        let result = runCLI(["compare", base.path, current.path])
        #expect(result.code == 2)
        #expect(
            result.errors == [
                "regression: 1 of 4 configurations regressed: throughput -20.0% at queue-pool/default/none/32 (95% intervals apart)"
            ])
        #expect(runCLI(["compare", base.path, current.path, "--format", "json"]).code == 2)
    }

    @Test func noiseLevelDifferencesExitZero() throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        // Every size within ±3% of the base medians, repetitions shuffled.
        let current = try FixtureRun(
            id: "head",
            rows: [
                (8, [515, 535, 526], [20_800, 21_500, 21_100]), (16, [1040, 1001, 1019], [21_200, 20_600, 21_000]),
                (32, [1985, 1930, 2004], [21_400, 20_900, 21_100]),
                (48, [1931, 2020, 1995], [20_500, 21_600, 21_000]),
            ])
        defer { base.remove(); current.remove() }
        let result = runCLI(["compare", base.path, current.path])
        #expect(result.code == 0)
        #expect(result.errors.isEmpty)
    }

    @Test func latencyRegressionExitsTwo() throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        var rows = Self.baseRows
        rows[1].p99 = [27_300, 27_700, 26_900]  // size 16: p99 21.0 → 27.3 ms, +30%
        let current = try FixtureRun(id: "head", rows: rows)
        defer { base.remove(); current.remove() }
        let result = runCLI(["compare", base.path, current.path, "--threshold", "10%"])
        #expect(result.code == 2)
        #expect(
            result.errors == [
                "regression: 1 of 4 configurations regressed: p99 latency +30.0% at queue-pool/default/none/16 (95% intervals apart)"
            ])
    }

    @Test func aWideThresholdLetsTheDropPass() throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        var rows = Self.baseRows
        rows[2].throughput = [1560, 1592, 1537]
        let current = try FixtureRun(id: "head", rows: rows)
        defer { base.remove(); current.remove() }
        #expect(runCLI(["compare", base.path, current.path, "--threshold", "0.25"]).code == 0)
    }

    @Test func mismatchedRunsExitThree() throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        let cpu = try FixtureRun(id: "cpu-run", workload: "cpu", rows: Self.baseRows)
        let bigger = try FixtureRun(id: "big", cores: 8, rows: Self.baseRows)
        let otherSizes = try FixtureRun(id: "sizes", rows: [(64, [2000, 2010, 1990], Self.latency)])
        defer { for run in [base, cpu, bigger, otherSizes] { run.remove() } }
        let workload = runCLI(["compare", base.path, cpu.path])
        #expect(workload.code == 3)
        #expect(
            workload.errors == [
                "error: runs cannot be compared: different workloads: base base measured io, current cpu-run measured cpu; compare two runs of the same workload"
            ])
        let cores = runCLI(["compare", base.path, bigger.path])
        #expect(cores.code == 3)
        #expect(
            cores.errors == [
                "error: runs cannot be compared: different cores: base base ran on 2 effective cores, current big on 8; compare runs on the same machine shape, or rerun with --cores 2"
            ])
        let sizes = runCLI(["compare", base.path, otherSizes.path])
        #expect(sizes.code == 3)
        #expect(
            sizes.errors == [
                "error: runs cannot be compared: no configuration is in both runs: base measured queue-pool/default/none at sizes 8, 16, 32, 48, current measured queue-pool/default/none at sizes 64"
            ])
    }

    /// Two --postgres runs of different scripts against one database share the workload's name
    /// and spec; the scripts' SHA-256 tells them apart, where a fall of 99.6% was compared as
    /// the same workload's.
    @Test func differentTransactionsExitThree() throws {
        func database(_ digest: String) -> SweepTarget {
            .database(
                DatabaseSetup(
                    connection: "postgresql://127.0.0.1:5432/bench", connectionLimit: 97, serverIsLocal: true,
                    statementTimeoutSeconds: 30, scriptSHA256: digest))
        }
        // sha256sum of "SELECT 1;\n" and of "UPDATE t SET v = v + 1;\n".
        let select = "b4e0497804e46e0a0b0b8c31975b062152d551bac49c3c2e80932567b4085dcd"
        let update = "9ab806136036f4eb8c7874393ae79c2024168283787c1dbaceeb2d5b0cdf6897"
        let base = try FixtureRun(id: "base", workload: "postgres-bench", target: database(select), rows: Self.baseRows)
        let slower = Self.baseRows.map { row in (row.size, row.throughput.map { $0 * 0.004 }, row.p99) }
        let other = try FixtureRun(id: "head", workload: "postgres-bench", target: database(update), rows: slower)
        let same = try FixtureRun(id: "same", workload: "postgres-bench", target: database(select), rows: Self.baseRows)
        defer { for run in [base, other, same] { run.remove() } }
        let result = runCLI(["compare", base.path, other.path])
        #expect(result.code == 3)
        #expect(
            result.errors == [
                "error: runs cannot be compared: different transactions: base base ran the script of SHA-256 b4e0497804e4…, current head that of 9ab806136036…; compare two runs of the same script (--sql or --sql-file; sha256sum FILE prints a file's)"
            ])
        #expect(runCLI(["compare", base.path, same.path]) == (0, []))
    }

    @Test func badArgumentsAreExplained() throws {
        let base = try FixtureRun(id: "base", rows: Self.baseRows)
        defer { base.remove() }
        #expect(
            runCLI(["compare", base.path, "/nonexistent/run"]) == (
                66,
                [
                    "error: /nonexistent/run: not found; pass a run directory written by 'poolsize sweep' (results/<run-id>)"
                ]
            ))
        #expect(
            runCLI(["compare", base.path, base.path, "--threshold", "150%"]) == (
                64, ["error: --threshold: must be in [0, 100%), got 150%; write 5% or 0.05"]
            ))
        #expect(
            runCLI(["compare", base.path, base.path, "--threshold", "5"]) == (
                64, ["error: --threshold: '5' is ambiguous; write 5% for a percentage or a fraction like 0.3"]
            ))
        #expect(runCLI(["compare", base.path]).code == 64)
        // A run against itself: nothing moved.
        #expect(runCLI(["compare", base.path, base.path]) == (0, []))
    }
}
