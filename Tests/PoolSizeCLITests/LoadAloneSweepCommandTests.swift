import Foundation
import PoolSizeModel
import Testing

/// `sweep --load` without `--server`: the tool's own concurrency (`{size}`) is the pool, the
/// tool run once per trial through the one trial loop. Each flag that cannot apply is one line
/// and exit 64 before anything runs; a tool that fails gives an invalid trial with its last
/// lines; pgbench against a PostgreSQL the test starts gives parsed, recorded trials; a plan
/// round-trips through machine.json and `--resume` runs only the trials a run lacks. What is
/// asserted is what is written and what runs, never how fast.
@Suite(.serialized) struct LoadAloneSweepCommandTests {
    static let tool = "pgbench -n -c {size} -T 1 -S bench"

    @Test(arguments: [
        (
            ["--load", "pgbench -n -c 4 -T 1 bench", "--parse", "pgbench", "--sizes", "1,2"],
            "error: --load: has no {size}, and no --server is started at each size, so every size would run the same load; add {size} where the tool takes its concurrency (pgbench -c {size}, say), or give --server, the server whose pool is sized"
        ),
        (
            ["--load", "wrk -c {size} http://127.0.0.1:{port}/", "--parse", "wrk", "--sizes", "1,2"],
            "error: --load: has {port}, but poolsize starts no server on a port it picks; write the port the server listens on, or give --server with {port} too"
        ),
        (
            ["--load", tool, "--sizes", "1,2"],
            "error: --parse: is needed with --load to read the tool's figures: wrk, pgbench, locust, k6, or a regular expression with a (?<throughput>…) group"
        ),
        (
            ["--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--connections", "8"],
            "error: --connections: sets poolsize's driver, which --load replaces; --load alone sizes the tool's own connections with {size} in its command: drop --connections"
        ),
        (
            ["--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--resize", "kill -TTIN {pid}"],
            "error: --resize: applies to the server --server starts; --load alone starts none: drop --resize"
        ),
        (
            ["--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--ready-timeout", "10s"],
            "error: --ready-timeout: applies to the server --server starts; --load alone starts none: drop --ready-timeout"
        ),
        (
            ["--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--http", "http://127.0.0.1:8080/"],
            "error: --http: --load alone is the whole load, the tool run at each size; drop --http (or give --server to load a server you start)"
        ),
        (
            ["--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--pool", "thread-pool"],
            "error: --pool: sets poolsize's own pools; --load alone sizes the tool's concurrency: drop --pool"
        ),
        (
            ["--load", "pgbench -c {size} -R {rate} -T 2", "--parse", "pgbench", "--sizes", "1,2"],
            "error: --load: has {rate}, but the sweep sets no rate; add --arrival-rate (with --server) for an open loop, or write the tool's own rate"
        ),
        (
            ["--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--arrival-rate", "100/s"],
            "error: --arrival-rate: --load alone runs the tool's own load at each size; drop --arrival-rate"
        ),
        (
            [
                "--load", tool, "--parse", "pgbench", "--sizes", "1,2", "--postgres", "postgresql://127.0.0.1:1/db",
                "--sql", "SELECT 1;",
            ],
            "error: --postgres: sizes a connection pool in this process, and --load runs your tool as the whole load; drop --load (pgbench -c {size} alone sizes its connections) or --postgres"
        ),
        (
            ["--load", tool, "--parse", "pgbench"],
            "error: --sizes: auto places sizes around the formula's N, and --load alone measures no W/C; list the sizes (--sizes 1,2,4,8,16)"
        ),
    ])
    func aFlagThatCannotApplyIsOneLine(arguments: [String], message: String) {
        let result = runCLI(["sweep"] + arguments)
        #expect(result.errors == [message])
        #expect(result.code == 64)
    }

    /// The dry run plans no low-load phase: there is no W/C for a tool alone to measure.
    @Test func theDryRunPlansNoLowLoadPhase() throws {
        let result = try EndToEndTests.run([
            "sweep", "--load", "pgbench -n -c {size} -T 1 -S bench", "--parse", "pgbench", "--sizes", "1,2,4",
            "--dry-run",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "\nlow-load phase: none (a load tool alone prints no CPU time per request, so there is no W/C to measure)\n"
            ), "\(result.stdout)")
        #expect(result.stdout.contains("grid: 3 sizes × 3 repetitions × 1 combination = 9 trials"))
    }

    /// A scratch directory removed after the test.
    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A tool of a few lines of shell: it notes each size it runs at in `log`, fails at size 2
    /// (a message on stderr, status 3) and otherwise prints 1000 × size requests per second over
    /// a 2 s window, read by a regular expression.
    static func scriptedTool(log: URL) -> [String] {
        let script =
            "echo \"$0\" >> '\(log.path)'; if [ \"$0\" = 2 ]; then echo 'connection refused at 2' >&2; echo 'giving up' >&2; exit 3; fi; "
            + "echo \"rate: $((1000 * $0)) in 2s\""
        return [
            "--load", ShellWords.join(["sh", "-c", script, "{size}"]), "--parse",
            "rate: (?<throughput>[0-9]+) in (?<duration>[0-9]+s)",
        ]
    }

    /// A figure past what any measurement gives (1e23 or 1e19 requests a second, through a preset
    /// or an expression) is an invalid trial naming it, as nan or a negative one is: no trap, and
    /// with no valid trial no recommendation (exit 5). A tool that printed 0/s at every size
    /// measured nothing either: no "recommended 1".
    @Test(arguments: [
        (
            "echo Requests/sec: 99999999999999999999999 n={size}", "wrk",
            "sh: printed '99999999999999999999999' as its throughput"
        ),
        (
            "echo rate 1e19 n={size}", "rate (?<throughput>\\S+)",
            "sh: printed '1e19' as its throughput"
        ),
        ("echo Requests/sec: 0 n={size}", "wrk", "no task finished in the "),
    ])
    func aFigureNoMachineGivesIsNoRecommendation(script: String, parse: String, reason: String) throws {
        let dir = try Self.scratch("load-range")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--load", ShellWords.join(["sh", "-c", script]), "--parse", parse, "--sizes", "1,2",
            "--repeat", "1", "--quiet", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 5, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        #expect(result.stdout.contains("no recommendation: none of the 2 trials measured is valid"), "\(result.stdout)")
        if reason.hasPrefix("sh: printed") {
            #expect(result.stdout.contains("as its throughput, beyond any measurement (2^53 or more)"))
        }
        let rows = try ServerSweepCommandTests.trials(run).rows.sorted { $0["pool_size"]! < $1["pool_size"]! }
        #expect(rows.count == 2)
        // The reason holds commas, where this reader of the CSV splits its cell: its start.
        #expect(rows.allSatisfy { $0["invalid_reason"]?.contains(reason) == true }, "\(rows)")
    }

    /// A tool whose output holds two different Requests/sec lines (a wrapper that ran wrk
    /// twice) is read at the last, and the console says so at each trial, where it was taken
    /// silently.
    @Test func twoThroughputsOfAPresetAreNoted() throws {
        let dir = try Self.scratch("load-twice")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try EndToEndTests.run([
            "sweep", "--load",
            ShellWords.join([
                "sh", "-c", "echo Requests/sec: 100; echo 500 requests in 2.00s; echo Requests/sec: 250 n={size}",
            ]),
            "--parse", "wrk", "--sizes", "1,2", "--repeat", "1", "--quiet", "--out",
            dir.appendingPathComponent("run").path,
            "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: sh printed") }
        #expect(
            notes
                == Array(repeating: "warning: sh printed 2 different throughputs; the last, 250/s, was taken", count: 2)
        )
        let rows = try ServerSweepCommandTests.trials(dir.appendingPathComponent("run")).rows
        #expect(rows.map { $0["throughput_per_s"] } == ["250.000", "250.000"], "\(rows)")
    }

    /// A tool that exits non-zero makes that trial invalid, with how it ended and its last
    /// lines, and is never recommended from; the other sizes are the tool's figures as printed.
    @Test func aFailingToolIsAnInvalidTrialWithItsLastLines() throws {
        let dir = try Self.scratch("load-failing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run(
            ["sweep"] + Self.scriptedTool(log: dir.appendingPathComponent("sizes.log")) + [
                "--sizes", "1,2,4", "--repeat", "1", "--quiet", "--out", run.path, "--plots",
                dir.appendingPathComponent("plots").path,
            ])
        #expect(result.code == 0, "\(result.stderr)")
        let rows = try ServerSweepCommandTests.trials(run).rows.sorted { $0["pool_size"]! < $1["pool_size"]! }
        #expect(rows.map { $0["pool_size"] } == ["1", "2", "4"])
        #expect(rows.allSatisfy { $0["pool"] == "load-tool" })
        #expect(rows.map { $0["throughput_per_s"].flatMap(Double.init) } == [1000, 0, 4000])
        #expect(rows[0]["invalid_reason"] == "" && rows[2]["invalid_reason"] == "")
        #expect(
            rows[1]["invalid_reason"]
                == "sh: exited with status 3; its last lines on stderr: 'connection refused at 2' | 'giving up'",
            "\(rows[1])")
        #expect(result.stdout.contains("recommended queue count: 4  (no formula without W/C, knee 4, peak at 4)"))
        #expect(
            result.stdout.contains(
                "low load: not measured: a load tool run alone prints no CPU time per request, so there is no W/C and no formula"
            ))
        #expect(!result.stdout.contains("formula 2"), "\(result.stdout)")
    }

    /// The plan records the tool whole (kind load-tool, its command and how it is read), reads
    /// back equal, and `--resume` of a run missing a trial runs that trial alone.
    @Test func thePlanRoundTripsAndAResumedRunMeasuresOnlyWhatItLacks() throws {
        let dir = try Self.scratch("load-resume")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("sizes.log")
        let run = dir.appendingPathComponent("run")
        let flags =
            ["sweep"] + Self.scriptedTool(log: log) + [
                "--sizes", "1,3,4", "--repeat", "1", "--quiet", "--plots", dir.appendingPathComponent("plots").path,
            ]
        let first = try EndToEndTests.run(flags + ["--out", run.path])
        #expect(first.code == 0, "\(first.stderr)")
        let machine =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("machine.json"))) as? [String: Any]
        let plan = try #require(machine?["plan"] as? [String: Any])
        let target = try #require(plan["target"] as? [String: Any])
        #expect(target["kind"] as? String == "load-tool")
        let setup = try #require(target["load_tool"] as? [String: Any])
        #expect((setup["command"] as? String)?.hasPrefix("sh -c ") == true)
        #expect(setup["parse"] as? [String] == ["rate: (?<throughput>[0-9]+) in (?<duration>[0-9]+s)"])
        #expect((machine?["sizes"] as? [Int]) == [1, 3, 4])
        // machine.json's keys are snake_case, as the run directory's reader reads them.
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let decoded = try decoder.decode(
            SweepTarget.self, from: JSONSerialization.data(withJSONObject: target))
        #expect(
            decoded
                == .loadTool(LoadToolSetup(command: setup["command"] as! String, parse: setup["parse"] as! [String])))
        // An older plan, without a target, is one of poolsize's own pools.
        var older = plan
        older["target"] = nil
        let olderPlan = try decoder.decode(SweepPlan.self, from: JSONSerialization.data(withJSONObject: older))
        #expect(olderPlan.target == .inProcess)

        // The run loses its size-3 trial, as an interrupted one would never have had it.
        let csv = run.appendingPathComponent("trials.csv")
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        let kept = lines.filter { !$0.contains(",load-tool,default,none,3,") }
        #expect(kept.count == lines.count - 1)
        try (kept.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        try "".write(to: log, atomically: true, encoding: .utf8)
        let resumed = try EndToEndTests.run(flags + ["--resume", run.path])
        #expect(resumed.code == 0, "\(resumed.stderr)")
        #expect(try String(contentsOf: log, encoding: .utf8) == "3\n", "only the missing size runs again")
        let rows = try ServerSweepCommandTests.trials(run).rows
        #expect(rows.compactMap { $0["pool_size"] }.sorted() == ["1", "3", "4"])
    }

    /// pgbench sizing its own connections against a PostgreSQL the test starts: one trial per
    /// size, each with the throughput pgbench printed and no errors, the sizes recorded.
    @Test func pgbenchAloneSizesItsConnections() throws {
        // A missing server fails the test, never skips it: .ci/run installs PostgreSQL.
        try #require(
            PostgresServer.available,
            "needs PostgreSQL (initdb, pg_ctl), pgbench and a postgres user: apt-get install postgresql")
        let server = try PostgresServer(pgbenchScale: 1)
        defer { server.stop() }
        let dir = try Self.scratch("load-pgbench")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let tool = "pgbench -n -c {size} -j 1 -T 1 -S -h 127.0.0.1 -p \(server.port) -U postgres bench"
        let result = try EndToEndTests.run([
            "sweep", "--load", tool, "--parse", "pgbench", "--sizes", "1,2,4", "--repeat", "1", "--quiet", "--out",
            run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let rows = try ServerSweepCommandTests.trials(run).rows
        #expect(rows.compactMap { $0["pool_size"] }.sorted() == ["1", "2", "4"])
        for row in rows {
            #expect(row["pool"] == "load-tool")
            #expect(row["invalid_reason"] == "", "\(row)")
            #expect((row["throughput_per_s"].flatMap(Double.init) ?? 0) > 0, "\(row)")
            #expect(row["errors"] == "0")
        }
        let machine =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("machine.json"))) as? [String: Any]
        #expect((machine?["sizes"] as? [Int]) == [1, 2, 4])
        #expect(result.stdout.contains("workload load-pgbench: load tool alone: pgbench -n -c"))
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("Not measured: a load tool run alone prints no CPU time per request"))
        #expect(!report.contains("CPU util"), "no CPU column for a tool alone")
    }

    /// `--resume DIR` alone rebuilds a sweep from its record; a run given a credential (here a
    /// password in the tool's command) never recorded it, so the record alone cannot rebuild it:
    /// one line says to give the flags again, exit 64, and nothing of the run changes.
    @Test func aResumeFromTheRecordAloneAsksForACredentialItNeverRecorded() throws {
        let dir = try Self.scratch("load-withheld")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = dir.appendingPathComponent("run")
        let script = "echo \"rate: $((1000 * $0)) in 2s\""
        let first = try EndToEndTests.run([
            "sweep", "--load", ShellWords.join(["env", "PGPASSWORD=hunter2", "sh", "-c", script, "{size}"]),
            "--parse", "rate: (?<throughput>[0-9]+) in (?<duration>[0-9]+s)", "--sizes", "1,2", "--repeat", "1",
            "--quiet", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(first.code == 0, "\(first.stderr)")
        let target = try String(contentsOf: run.appendingPathComponent("target.json"), encoding: .utf8)
        #expect(!target.contains("hunter2") && target.contains("PGPASSWORD=REDACTED"), "\(target)")
        let trials = try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8)
        let resumed = try EndToEndTests.run(["sweep", "--resume", run.path])
        #expect(resumed.code == 64)
        #expect(
            resumed.stderr
                == "error: --resume: the run in \(run.path) was given a credential (a header, a URL's secret, a password or a token), which a run never records; give the sweep's flags again beside --resume\n"
        )
        #expect(try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8) == trials)
    }
}
