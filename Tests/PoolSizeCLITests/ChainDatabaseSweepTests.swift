import Foundation
import Testing

/// A chain against a real database: Examples/chain's service under gunicorn (workers × threads,
/// a psycopg pool of `pool` connections per worker) on a cluster that allows 6 connections. The
/// cell of 2 workers × 4 connections needs 8, so it never runs, and the answer says why.
@Suite(.serialized) struct ChainDatabaseSweepTests {
    @Test func aCellPastTheConnectionLimitNeverRuns() throws {
        let cluster = try PostgresServer(maxConnections: 6)
        defer { cluster.stop() }
        let url = "postgresql://postgres@127.0.0.1:\(cluster.port)/postgres"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-db-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server",
            "gunicorn -k gthread -w {workers} --threads {threads} -e POOL_SIZE={pool} -e DATABASE_URL=\(url) -b 127.0.0.1:{port} --chdir Examples/chain chain_app:app",
            "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1,2", "--sizes", "threads=2,4", "--sizes",
            "pool=threads", "--database", url, "--database-connections", "workers*pool", "--repeat", "1",
            "--trial-ms", "500", "--quiet", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let excluded =
            "workers=2 threads=4 pool=4: workers × pool needs at least 8 connections; the server allows 5 for this role (max_connections 6, 1 for poolsize's watch of the database)"
        let csv = try String(contentsOf: run.appendingPathComponent("chain.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",")
        }
        #expect(rows == ["1,2,2,2,measured", "1,4,4,4,measured", "2,2,2,4,measured", "2,4,4,8,excluded"], "\(csv)")
        // The reason holds a comma: the cell is quoted.
        #expect(csv.hasSuffix(",\"\(excluded)\"\n"), "\(csv)")
        // The watch counts each cell's connections as the database saw them: the pools'.
        let peaks = csv.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)[9]
        }
        #expect(peaks == ["2", "4", "4", ""], "\(csv)")
        #expect(result.stdout.contains("excluded: \(excluded)\n"), "\(result.stdout)")
        let json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("recommendation.json"))) as? [String: Any]
        let sizes = try #require(json?["recommended_sizes"] as? [String: Int])
        #expect(sizes["workers"]! * sizes["pool"]! <= 6)
        let limit = try #require(json?["connection_limit"] as? [String: Int])
        #expect(limit["max_connections"] == 6)
        #expect(limit["watching"] == 1)
    }

    /// Connection errors in a trial are failures, never throughput: with one connection for 8
    /// threads, a request waits about 35 ms for it and gives up after 20 ms (the service answers
    /// 503 with psycopg_pool's PoolTimeout), so that cell fails, saying why in the service's own
    /// words, and the pool of 8 is recommended.
    @Test func aCellWhoseRequestsCannotGetAConnectionFails() throws {
        let cluster = try PostgresServer(maxConnections: 20)
        defer { cluster.stop() }
        let url = "postgresql://postgres@127.0.0.1:\(cluster.port)/postgres"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-chain-fail-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server",
            "gunicorn -k gthread -w {workers} --threads {threads} -e POOL_SIZE={pool} -e CHAIN_APP_POOL_WAIT_S=0.02 -e DATABASE_URL=\(url) -b 127.0.0.1:{port} --chdir Examples/chain chain_app:app",
            "--http", "http://127.0.0.1:{port}/", "--sizes", "workers=1", "--sizes", "threads=8", "--sizes",
            "pool=1,8", "--database", url, "--database-connections", "workers*pool", "--repeat", "1",
            "--trial-ms", "1000", "--connections", "32", "--quiet", "--out", run.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let csv = try String(contentsOf: run.appendingPathComponent("chain.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").dropFirst()
        let starts = lines.map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",")
        }
        #expect(starts == ["1,8,1,1,failed", "1,8,8,8,measured"], "\(csv)")
        let failed = try #require(lines.first)
        #expect(
            failed.contains(
                "a trial may lose); the first: answered 503 Service Unavailable (\"\"database: PoolTimeout"), "\(csv)")
        let json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("recommendation.json"))) as? [String: Any]
        #expect(json?["recommended_sizes"] as? [String: Int] == ["workers": 1, "threads": 8, "pool": 8])
    }
}
