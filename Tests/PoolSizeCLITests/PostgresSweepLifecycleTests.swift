import Foundation
import Testing

/// `sweep --postgres` against a real PostgreSQL (scripts/pg-cluster.sh) over a whole sweep: the
/// connection pool's rules of thumb measured beside the answer and the server's connection
/// limit bounding `--sizes auto`; `--task-timeout` as each connection's statement_timeout; a
/// server stopped during the sweep (that trial invalid with why, finished trials kept, one
/// line, exit 69); backends ended from another connection (that trial invalid, the sweep goes
/// on); a sweep interrupted and resumed completing every size.
@Suite(.serialized) struct PostgresSweepLifecycleTests {
    static let selectOnly = PostgresSweepCommandTests.selectOnly

    static func url(_ server: PostgresServer) -> String { "postgresql://postgres@127.0.0.1:\(server.port)/bench" }

    /// The lines of trials.csv after its header.
    static func rows(_ run: URL) -> [String] {
        let text = (try? String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8)) ?? ""
        return Array(text.split(separator: "\n").dropFirst().map(String.init))
    }

    /// Starts a sweep in the background, its stderr in `stderr`.
    static func start(_ arguments: [String], stderr: URL) throws -> Process {
        FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        return process
    }

    /// Waits (up to two minutes) until the run has `count` trials on disk or the sweep ended.
    static func await(trials count: Int, in run: URL, of process: Process) {
        for _ in 0..<2_400 {
            if rows(run).count >= count || !process.isRunning { return }
            usleep(50_000)
        }
    }

    /// A server allowing 10 connections, 3 of them reserved for superusers and one held by the
    /// sweep's own pg_stat_activity sampler: `auto` measures no pool past 6, HikariCP's 5 (2
    /// cores) and the limit 6 are measured as the search's seeds,
    /// and the console and report say what each gave beside the recommendation; the plan
    /// records the database target.
    @Test func theRulesAreMeasuredAndTheLimitBoundsAuto() throws {
        let server = try PostgresServer(pgbenchScale: 1, maxConnections: 10)
        defer { server.stop() }
        let dir = try PostgresSweepCommandTests.scratch("postgres-rules")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--postgres", Self.url(server), "--sql", Self.selectOnly, "--cores", "2", "--repeat", "1",
            "--trial-ms", "300", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let rows = try ServerSweepCommandTests.trials(run).rows
        let sizes = Set(rows.compactMap { $0["pool_size"].flatMap(Int.init) })
        #expect(sizes.max() == 6, "\(sizes.sorted())")
        #expect(sizes.isSuperset(of: [5, 6]), "\(sizes.sorted())")
        let heading =
            "rules of thumb for a connection pool, on the database server's 2 cores (it runs on this machine), measured in this run:"
        #expect(result.stdout.contains("\n\(heading)\n  HikariCP (cores × 2) + 1 = 5: "), "\(result.stdout)")
        #expect(result.stdout.contains("\n  max_connections = 6: "), "\(result.stdout)")
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("## Database"), "\(report)")
        #expect(report.contains("- HikariCP (cores × 2) + 1 = 5: "), "\(report)")
        let machine = try String(contentsOf: run.appendingPathComponent("machine.json"), encoding: .utf8)
        #expect(machine.contains("\"kind\" : \"database\""), "\(machine)")
        #expect(machine.contains("\"connection_limit\" : 6"), "\(machine)")
    }

    /// `--task-timeout 50ms` is each connection's statement_timeout: a 200 ms statement is
    /// cancelled by the server (SQLSTATE 57014), a failure whose line names the flag.
    @Test func theTaskTimeoutIsTheStatementTimeout() throws {
        let server = try PostgresServer(pgbenchScale: 1, maxConnections: 20)
        defer { server.stop() }
        let dir = try PostgresSweepCommandTests.scratch("postgres-timeout")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try EndToEndTests.run([
            "sweep", "--postgres", Self.url(server), "--sql", "SELECT pg_sleep(0.2);", "--task-timeout", "50ms",
            "--sizes", "1", "--repeat", "1", "--quiet", "--out", dir.appendingPathComponent("run").path,
        ])
        #expect(result.code == 5)
        #expect(
            result.stderr.contains(
                "SQLSTATE 57014: canceling statement due to statement timeout: it ran past --task-timeout 50 ms; fix it first"
            ), "\(result.stderr)")
    }

    /// The cluster stopped once the first trial is on disk: the trial it happened in is
    /// invalid with why, the finished ones are kept, and the sweep ends with one line naming
    /// --postgres and --resume, exit 69.
    @Test func aServerThatGoesAwayStopsTheSweep() throws {
        let server = try PostgresServer(pgbenchScale: 1, maxConnections: 20)
        defer { server.stop() }
        let dir = try PostgresSweepCommandTests.scratch("postgres-gone")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let stderr = dir.appendingPathComponent("stderr")
        let process = try Self.start(
            [
                "sweep", "--postgres", Self.url(server), "--sql", Self.selectOnly, "--sizes", "1,2,3,4,6,8",
                "--search", "grid", "--repeat", "1", "--warmup", "0", "--trial-ms", "1500", "--quiet", "--out",
                run.path, "--plots", dir.appendingPathComponent("plots").path,
            ], stderr: stderr)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        Self.await(trials: 1, in: run, of: process)
        server.stop()
        let exit = process.awaitExit(timeout: 120)
        let errors = ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(exit.code == 69, "\(errors)")
        #expect(
            errors.last?.hasPrefix("error: --postgres: the server went away during the sweep (cannot connect: ")
                == true, "\(errors)")
        #expect(
            errors.last?.hasSuffix(
                "; the finished trials are kept: start the server and resume the run with --resume \(run.path)"
            ) == true, "\(errors)")
        let rows = Self.rows(run)
        #expect(rows.count >= 2 && rows.count < 8, "\(rows)")
        #expect(rows.contains { $0.contains("broke during the trial, and the server went away: cannot connect: ") })
        #expect(rows.contains { !$0.contains("broke during the trial") }, "no finished trial kept")
    }

    /// The sweep's backends ended from a second connection (pg_terminate_backend) once a trial
    /// is on disk: the trial it happened in is invalid with why, the server answers again, so
    /// the sweep goes on and ends normally with every size measured.
    @Test func endedBackendsMakeTheirTrialInvalidAndTheSweepGoesOn() throws {
        let server = try PostgresServer(pgbenchScale: 1, maxConnections: 10)
        defer { server.stop() }
        let dir = try PostgresSweepCommandTests.scratch("postgres-terminated")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let stderr = dir.appendingPathComponent("stderr")
        let process = try Self.start(
            [
                "sweep", "--postgres", Self.url(server), "--sql", Self.selectOnly, "--cores", "2", "--sizes",
                "1,2,3,4,6", "--search", "grid", "--repeat", "1", "--warmup", "0", "--trial-ms", "1500", "--quiet",
                "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
            ], stderr: stderr)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        Self.await(trials: 1, in: run, of: process)
        let psql = try #require(PostgresServer.bin?.appendingPathComponent("psql"))
        _ = try PostgresServer.run(
            psql,
            [
                "-h", "127.0.0.1", "-p", String(server.port), "-U", "postgres", "-d", "bench", "-c",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
            ], seconds: 60)
        let exit = process.awaitExit(timeout: 120)
        #expect(exit.code == 0, "\((try? String(contentsOf: stderr, encoding: .utf8)) ?? "")")
        let rows = Self.rows(run)
        // 1, 2, 3, 4 and 6 asked for, HikariCP's 5; the limit (10 less 3 reserved, less the
        // sampler's connection) is 6.
        #expect(rows.count == 6, "\(rows)")
        #expect(
            rows.contains {
                $0.contains("broke during the trial (their backends ended; the server answered again after it)")
            }, "\(rows)")
    }

    /// Interrupted (SIGINT) once a trial is on disk and resumed with `--resume DIR` alone: every size
    /// is measured once, the listed ones and the rules' (HikariCP's 5, the limit 6: 10 less 3
    /// reserved, less the sampler's connection), the kept
    /// trials first.
    @Test func anInterruptedPostgresSweepResumes() throws {
        let server = try PostgresServer(pgbenchScale: 1, maxConnections: 10)
        defer { server.stop() }
        let dir = try PostgresSweepCommandTests.scratch("postgres-resume")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let flags = [
            "sweep", "--postgres", Self.url(server), "--sql", Self.selectOnly, "--cores", "2", "--sizes",
            "1,2,3,4,6", "--search", "grid", "--repeat", "1", "--warmup", "0", "--trial-ms", "1500", "--quiet",
            "--plots", dir.appendingPathComponent("plots").path, "--out", run.path,
        ]
        let process = try Self.start(flags, stderr: dir.appendingPathComponent("stderr"))
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        Self.await(trials: 1, in: run, of: process)
        kill(process.processIdentifier, SIGINT)
        #expect(process.awaitExit().code == 130)
        let kept = try ServerSweepCommandTests.trials(run).rows
        #expect(kept.count >= 1 && kept.count < 6, "\(kept.count) trials before the interruption")
        // `--resume DIR` alone: the connection, the script and the plan come from the run's record.
        let resumed = try EndToEndTests.run(
            ["sweep", "--resume", run.path, "--quiet", "--plots", dir.appendingPathComponent("plots").path])
        #expect(resumed.code == 0, "\(resumed.stderr)")
        let rows = try ServerSweepCommandTests.trials(run).rows
        #expect(rows.compactMap { $0["pool_size"] }.sorted() == ["1", "2", "3", "4", "5", "6"])
        #expect(Array(rows.prefix(kept.count)).map { $0["pool_size"] } == kept.map { $0["pool_size"] })
    }
}
