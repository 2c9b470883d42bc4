import Foundation
import Testing

/// `sweep --postgres`'s database figures against a real server (scripts/pg-cluster.sh): a
/// transaction that updates one row everyone updates is held by lock waits and gets a small
/// pool; one that sleeps in `pg_sleep` is wait, not CPU, and gets a larger one; transactions
/// that fail under concurrency are counted by SQLSTATE per trial. The assertions are on the
/// classes and the order of the answers, which hold on a slow or busy machine, never on figures.
@Suite(.serialized) struct PostgresWaitSweepTests {
    static let sameRow = """
        BEGIN;
        UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;
        SELECT pg_sleep(0.002);
        END;
        """

    /// The count of "recommended queue count: N" in the console summary.
    static func recommended(_ stdout: String) -> Int? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("recommended queue count: ") })
        else { return nil }
        return Int(line.dropFirst("recommended queue count: ".count).prefix { $0.isNumber })
    }

    /// Each row's pool size and its `db_` cells, which end the row: read from the end, since
    /// an invalid trial's reason before them is a quoted cell holding commas.
    static func databaseCells(_ run: URL) throws -> [(size: String, cells: [String: String])] {
        let lines = try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8).split(
            separator: "\n")
        let names = lines[0].split(separator: ",").map(String.init)
        let database = names.filter { $0.hasPrefix("db_") }
        let sizeColumn = names.firstIndex(of: "pool_size") ?? 0
        // Counted from the row's end (a quoted reason before them may hold commas): the columns
        // after the database's (how the window ended) come off first.
        let after = names.count - 1 - (names.lastIndex { $0.hasPrefix("db_") } ?? names.count - 1)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let mine = cells.dropLast(after).suffix(database.count)
            return (cells[sizeColumn], Dictionary(uniqueKeysWithValues: zip(database, mine)))
        }
    }

    static func sweep(_ url: String, _ sql: String, sizes: String, dir: URL, name: String) throws -> (
        code: Int32, stdout: String, stderr: String, run: URL
    ) {
        let run = dir.appendingPathComponent(name)
        let result = try EndToEndTests.run([
            "sweep", "--postgres", url, "--sql", sql, "--sizes", sizes, "--repeat", "1", "--trial-ms", "300",
            "--search", "grid", "--out", run.path, "--plots", dir.appendingPathComponent("plots-\(name)").path,
        ])
        return (result.code, result.stdout, result.stderr, run)
    }

    @Test func theDatabaseSaysWhyTheCurveBends() throws {
        let server = try PostgresServer(pgbenchScale: 1)
        defer { server.stop() }
        let url = "postgresql://postgres@127.0.0.1:\(server.port)/bench"
        let dir = try PostgresSweepCommandTests.scratch("postgres-wait")
        defer { try? FileManager.default.removeItem(at: dir) }

        let lock = try Self.sweep(url, Self.sameRow, sizes: "1,4,16", dir: dir, name: "lock")
        #expect(lock.code == 0, "\(lock.stderr)")
        #expect(lock.stdout.contains("the time goes to lock waits (Lock "), "\(lock.stdout)")
        // The sizes include the rules of thumb's, HikariCP's 2 × cores + 1 among them (5 on 2
        // cores): on a busy machine 4 and 5 are one 5% step apart, and either is the lock's answer.
        let small = Self.recommended(lock.stdout)
        #expect((small ?? 99) <= 2 * ProcessInfo.processInfo.activeProcessorCount + 1, "\(lock.stdout)")
        let report = try String(contentsOf: lock.run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("## Database"))
        #expect(report.contains("the time goes to lock waits (Lock "))
        let metrics = try EndToEndTests.run(["export", lock.run.path, "--to", "openmetrics"])
        #expect(metrics.stdout.contains("poolsize_database_wait_ratio{"), "\(metrics.stdout)")
        #expect(metrics.stdout.contains("size=\"16\",class=\"lock\"}"), "\(metrics.stdout)")
        for row in try ServerSweepCommandTests.trials(lock.run).rows {
            #expect(Int(row["db_snapshots"] ?? "") ?? 0 > 0, "\(row)")
            // Local server: the backends' CPU is read from /proc.
            #expect(Double(row["db_backend_cpu_s"] ?? "") ?? 0 > 0, "\(row)")
        }

        // 50 ms asleep: even the max_connections rule's size (about 200 connections) asks the 2
        // cores for a few thousand transactions a second, so the backends sleep rather than wait
        // for their client's thread to get a core (5 ms made ClientRead win on a busy machine).
        let sleep = try Self.sweep(url, "SELECT pg_sleep(0.05);", sizes: "1,4,16", dir: dir, name: "sleep")
        #expect(sleep.code == 0, "\(sleep.stderr)")
        #expect(sleep.stdout.contains("the time is wait, not CPU (Timeout/pg_sleep "), "\(sleep.stdout)")
        let large = Self.recommended(sleep.stdout)
        #expect((large ?? 0) >= 16, "\(sleep.stdout)")
        // The formula asks for about a thousand connections; the answer stays within the server's.
        let limit = try #require(
            sleep.stdout.firstMatch(of: /the server let the sweep hold (\d+) connections/).flatMap { Int($0.1) },
            "\(sleep.stdout)")
        #expect(large == limit, "\(sleep.stdout)")
        #expect(sleep.stdout.contains("knee none yet"), "\(sleep.stdout)")
        #expect((large ?? 0) > (small ?? 99))

        // Alone, a transaction never conflicts; beside others updating the same row under
        // REPEATABLE READ most fail with a serialization failure: counted by SQLSTATE, never
        // throughput (the trial is invalid, so the sweep recommends nothing and says so).
        let serial = try Self.sweep(
            url,
            "BEGIN ISOLATION LEVEL REPEATABLE READ;\n"
                + Self.sameRow.split(separator: "\n").dropFirst().joined(separator: "\n"),
            sizes: "1,4", dir: dir, name: "serial")
        #expect(serial.code != 0)
        let rows = try Self.databaseCells(serial.run)
        let one = rows.first { $0.size == "1" }, four = rows.first { $0.size == "4" }
        #expect(one?.cells["db_errors"] == "", "\(String(describing: one))")
        let errors = four?.cells["db_errors"] ?? ""
        #expect(errors.hasPrefix("40001:") && !errors.contains(" "), "\(errors)")
        #expect(Int(errors.dropFirst("40001:".count)) ?? 0 > 0)
    }
}
