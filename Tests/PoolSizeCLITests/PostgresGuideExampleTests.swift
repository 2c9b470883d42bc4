import Foundation
import Testing

/// docs/guide/postgres.md's example, run as written: the indented block from the line that
/// starts a PostgreSQL (scripts/pg-cluster.sh) to the one that stops it, in bash, `poolsize`
/// found on PATH (the built binary's directory first), from a directory whose scripts/ and
/// Examples/ are the repository's. No figure is asserted: those depend on the machine
/// (docs/benchmarks/postgres.md).
@Suite(.serialized) struct PostgresGuideExampleTests {
    /// Every block that starts a PostgreSQL, in the guide's order.
    static func examples() throws -> [[String]] { try PostgresServer.guideBlocks("docs/guide/postgres.md") }

    /// The first block: the closed loop's example.
    static func example() throws -> [String] { try examples().first ?? [] }

    /// The block that sizes for a latency objective at an arrival rate.
    static func openLoopExample() throws -> [String] {
        try examples().first { block in block.contains { $0.contains("--arrival-rate") } } ?? []
    }

    /// Runs `block` in a directory of its own whose scripts/ and Examples/ are the repository's;
    /// its result, and the run directory it wrote.
    static func run(
        _ block: [String], exitCodes: Set<Int32> = [0], check: (BinaryRun.Result, URL) throws -> Void
    ) throws {
        try #require(
            PostgresServer.available,
            "needs PostgreSQL (initdb, pg_ctl), pgbench and a postgres user: apt-get install postgresql")
        try #require(block.count >= 3, "\(block)")
        let dir = try PostgresServer.guideDirectory(linking: ["scripts", "Examples"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (result, cluster) = try PostgresServer.runGuideBlock(block, in: dir)
        defer { PostgresServer.stopLeft(cluster) }
        #expect(exitCodes.contains(result.code), "\(result.stderr)")
        #expect(result.stdout.contains("workload postgres-bench: PostgreSQL: postgresql://REDACTED@127.0.0.1:"))
        #expect(cluster.map { !FileManager.default.fileExists(atPath: $0) } == true, "the cluster's directory is gone")
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("results").path)
        try #require(runs.count == 1, "\(runs)")
        try check(result, dir.appendingPathComponent("results/\(runs[0])"))
    }

    @Test func theGuideHasItsExample() throws {
        let block = try Self.example()
        #expect(block.first?.hasPrefix("eval \"$(scripts/pg-cluster.sh start") == true, "\(block)")
        #expect(block.contains { $0.hasPrefix("poolsize sweep --postgres ") }, "\(block)")
        #expect(block.contains { $0.contains("--sql-file Examples/postgres/select-only.sql") }, "\(block)")
        #expect(block.last == "scripts/pg-cluster.sh stop \"$PGCLUSTER_DIR\"", "\(block)")
    }

    /// The block runs in bash: the sweep recommends from its three sizes and the rules' two, every transaction
    /// succeeds, and the cluster its first line starts is stopped by its last (and by the test
    /// when the block did not get there). PostgreSQL missing fails the test: .ci/run installs it.
    @Test func theExampleRunsAsWritten() throws {
        try Self.run(try Self.example()) { result, run in
            #expect(result.stdout.contains("\nrecommended queue count: "), "\(result.stdout)")
            #expect(result.stdout.contains("stopped: 0"), "\(result.stdout)")
            let trials = try ServerSweepCommandTests.trials(run).rows
            // The sizes asked for, and the connection pool's rules: HikariCP's (cores × 2) + 1 on the
            // plan's cores, and the cluster's 100 connections less 3 reserved for superusers and the
            // one the sweep's pg_stat_activity sampler holds.
            let machine = try Data(contentsOf: run.appendingPathComponent("machine.json"))
            let plan = (try JSONSerialization.jsonObject(with: machine) as? [String: Any])?["plan"] as? [String: Any]
            let cores = try #require(plan?["cores"] as? Int)
            #expect(Set(trials.compactMap { $0["pool_size"] }) == Set(["1", "8", "64", "96", String(2 * cores + 1)]))
            for row in trials {
                #expect(row["errors"] == "0", "\(row)")
            }
        }
    }

    /// The open-loop block: every size at the offered rate, the database's table per rate and
    /// size, and an answer for the objective: a size (exit 0), or, on a machine too busy for
    /// 4000/s within 5 ms (the suite's other tests beside it), none (exit 5), as the guide says.
    @Test func theOpenLoopExampleRunsAsWritten() throws {
        let block = try Self.openLoopExample()
        #expect(block.contains { $0.contains("--latency-slo") }, "\(block)")
        try Self.run(block, exitCodes: [0, 5]) { result, run in
            #expect(result.stdout.contains("\ndatabase at each rate (the sweep's backends"), "\(result.stdout)")
            let answer =
                result.code == 0
                ? "\nrecommended queue count: " : "\nno size measured met the objective (p99 ≤ 5.00 ms at 4000/s)"
            #expect(result.stdout.contains(answer), "\(result.stdout)")
            let trials = try ServerSweepCommandTests.trials(run).rows
            #expect(!trials.isEmpty && trials.allSatisfy { $0["arrival_rate_per_s"]?.isEmpty == false }, "\(trials)")
            #expect(trials.allSatisfy { $0["db_snapshots"].flatMap { Int($0) }.map { $0 > 0 } == true }, "\(trials)")
        }
    }
}
