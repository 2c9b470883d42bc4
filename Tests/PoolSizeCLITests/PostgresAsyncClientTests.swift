import Foundation
import PoolSizeModel
import Testing

/// `sweep --postgres` with its default client (`--client async`: a thread per core drives N
/// connections without blocking) against a PostgreSQL the test starts: N connections are busy
/// at once and no more, a failed command inside a transaction block rolls it back so the
/// connection's next transaction starts clean, failures are counted by SQLSTATE, and no
/// backend of the sweep is left when it ends.
@Suite(.serialized) struct PostgresAsyncClientTests {
    /// The sweep's rows by pool size, from its trials.csv.
    static func rows(_ run: URL) throws -> [String: [String: String]] {
        var bySize: [String: [String: String]] = [:]
        for row in try ServerSweepCommandTests.trials(run).rows { bySize[row["pool_size"] ?? ""] = row }
        return bySize
    }

    /// The sweep's backends still open on `server` (the postmaster's children serving `bench`
    /// from 127.0.0.1).
    static func sweepBackends(_ server: PostgresServer) -> [String] {
        server.childTitles().filter { $0.contains(" bench 127.0.0.1") }
    }

    /// A cluster of the test's own, and a sweep of `sql` against its `postgres` database with
    /// `arguments` (one repetition of a grid, quiet); `check` gets the cluster, the sweep's
    /// result and its run directory. The cluster is stopped and the directory removed however
    /// the test ends.
    static func sweep(
        _ sql: String, _ arguments: [String],
        check: (PostgresServer, (code: Int32, stdout: String, stderr: String), URL) throws -> Void
    ) throws {
        let server = try PostgresServer(pgbenchScale: nil, maxConnections: 30)
        defer { server.stop() }
        let dir = try PostgresSweepCommandTests.scratch("pg-async")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run(
            ["sweep", "--postgres", "postgresql://postgres@127.0.0.1:\(server.port)/postgres", "--sql", sql]
                + arguments + ["--cores", "2", "--search", "grid", "--repeat", "1", "--quiet", "--out", run.path])
        try check(server, result, run)
    }

    /// A transaction of `pg_sleep(0.01)`: N connections complete at most N / 10 ms (a known
    /// answer, each transaction at least 10 ms on the server), and every connection is in that
    /// sleep almost all the time, so the backends sampled in pg_stat_activity in the
    /// `Timeout/pg_sleep` wait number N per snapshot (at least 0.8 N on average), never more.
    /// Both clients give the same figures; the async one with one thread per core (2 here) for
    /// any N, the threads one with N.
    @Test(arguments: ["async", "threads"]) func nConnectionsAreBusyAtOnceAndNoMore(client: String) throws {
        try Self.sweep(
            "SELECT pg_sleep(0.01);", ["--client", client, "--sizes", "2,8", "--trial-ms", "1500"]
        ) { server, result, run in
            #expect(result.code == 0, "\(result.stderr)")
            let rows = try Self.rows(run)
            for size in [2, 8] {
                let row = try #require(rows[String(size)], "\(rows.keys)")
                let throughput = try #require(row["throughput_per_s"].flatMap(Double.init))
                let ceiling = Double(size) / 0.010
                #expect(throughput <= ceiling * 1.01 && throughput >= ceiling * 0.8, "N = \(size): \(throughput)/s")
                #expect(row["peak_concurrency"] == String(size), "\(row)")
                #expect(row["threads"] == (client == "async" ? "2" : String(size)), "\(row)")
                #expect(row["errors"] == "0", "\(row)")
                let snapshots = try #require(row["db_snapshots"].flatMap(Double.init))
                let sleeping = try #require(row["db_timeout_samples"].flatMap(Double.init))
                #expect(snapshots > 0, "\(row)")
                // In pg_sleep 80% of the time or more, the share the throughput check above asks
                // of each connection (a busy machine delays the client between transactions).
                #expect(
                    sleeping / snapshots <= Double(size) && sleeping / snapshots >= Double(size) * 0.8,
                    "N = \(size): \(sleeping) backends in pg_sleep over \(snapshots) snapshots")
            }
            let machine = try String(contentsOf: run.appendingPathComponent("machine.json"), encoding: .utf8)
            #expect(machine.contains("\"client\" : \"\(client)\""), "\(machine)")
            #expect(Self.sweepBackends(server).isEmpty, "\(server.childTitles())")
        }
    }

    /// Every transaction of the odd-numbered connections fails inside BEGIN … COMMIT (a division
    /// by zero for an odd `:client_id`; the low-load phase's one connection, number 0, never
    /// fails): each failure is counted under its SQLSTATE, 22012, and the block is rolled back,
    /// or the connection's next BEGIN would find it aborted and its statements would fail with
    /// 25P02. About half the transactions of 4 connections fail (a failed one is quicker), and
    /// the sweep withholds its answer, the SQLSTATE in the trial's record.
    @Test func aFailureInsideABlockIsCountedAndRolledBack() throws {
        try Self.sweep("BEGIN;\nSELECT 1 / ((:client_id + 1) % 2);\nCOMMIT;", ["--sizes", "4", "--trial-ms", "600"]) {
            server, result, run in
            #expect(result.code != 0)
            #expect(result.stderr.contains("no recommendation: "), "\(result.stderr)")
            let row = try #require(try Self.rows(run)["4"])
            let errors = try #require(row["errors"].flatMap(Double.init))
            let tasks = try #require(row["tasks"].flatMap(Double.init))
            #expect(errors > 50 && tasks > 50, "\(row)")
            #expect(row["invalid_reason"]?.hasSuffix("the first: SQLSTATE 22012: division by zero") == true, "\(row)")
            #expect(errors / (errors + tasks) > 0.4 && errors / (errors + tasks) < 0.7, "\(row)")
            // Only 22012: no transaction found its connection's block aborted (25P02).
            #expect(row["db_errors"]?.hasPrefix("22012:") == true && row["db_errors"]?.contains(" ") == false, "\(row)")
            #expect(Self.sweepBackends(server).isEmpty, "\(server.childTitles())")
        }
    }
}
