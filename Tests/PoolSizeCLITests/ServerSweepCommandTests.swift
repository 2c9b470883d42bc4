import Foundation
import PoolSizeModel
import PoolSizeOutput
import PoolSizeProcess
import Testing

/// `sweep --server`: each flag combination that cannot run is one line and exit 64 before
/// anything starts; a sweep of `poolsize serve` records its plan's target (credentials masked),
/// the server's trials and the driver's cost, leaves no server running, and continues with
/// `--resume` after an interruption. The assertions are about what is written and what runs,
/// never about how fast.
@Suite(.serialized) struct ServerSweepCommandTests {
    static let command = "srv --threads {size} --port {port}"
    static let url = "http://127.0.0.1:{port}/"

    @Test(arguments: [
        (
            ["--server", command],
            "error: --server: needs the URL to load: add --http 'http://127.0.0.1:{port}/path' (with {port} when the command has it)"
        ),
        (
            ["--server", command, "--http", "http://127.0.0.1:8080/"],
            "error: --http: has no {port}, but --server listens on the port poolsize picks; write {port} as the URL's port, e.g. http://127.0.0.1:{port}/"
        ),
        (
            ["--server", "srv --threads {size}", "--http", url],
            "error: --http: has {port}, but --server has none, so the server is never told the port; add {port} to --server, or write the server's own port in the URL"
        ),
        (
            ["--server", "python3 -m http.server {port}", "--http", url],
            "error: --server: has no {size}, so every size would start the same server; add {size} where the command takes its pool size (--threads={size}, say)"
        ),
        (
            ["--server", command, "--http", url, "--exec", "true"],
            "error: --exec: a server sweep's tasks are --http requests; drop --exec"
        ),
        (
            ["--server", command, "--http", url, "--workload", "cpu"],
            "error: --workload: a server sweep's tasks are --http requests; drop --workload"
        ),
        (
            ["--server", command, "--http", url, "--pool", "thread-pool"],
            "error: --pool: sets poolsize's own pools; a server sweep sizes the server's pool: drop --pool"
        ),
        (
            [
                "--server", command, "--http", url, "--arrival-rate", "100/s", "--load",
                "wrk -c8 http://127.0.0.1:{port}/", "--parse", "wrk",
            ],
            "error: --load: has no {rate}, so the tool would run its own load, not the --arrival-rate asked; write {rate} where the tool takes its request rate (k6 -e RATE={rate} with Examples/load/k6-rate.js, vegeta attack -rate={rate}, wrk2 -R{rate}), or drop --arrival-rate"
        ),
        (
            ["--server", command, "--http", url, "--load", "wrk2 -R{rate} http://127.0.0.1:{port}/", "--parse", "wrk"],
            "error: --load: has {rate}, but the sweep sets no rate; add --arrival-rate (with --server) for an open loop, or write the tool's own rate"
        ),
        (
            [
                "--server", command, "--http", url, "--arrival-rate", "100/s", "--arrivals", "poisson", "--load",
                "wrk2 -R{rate} http://127.0.0.1:{port}/", "--parse", "wrk",
            ],
            "error: --arrivals: the load tool spaces its own arrivals at the rate it is given, so they cannot be poisson; drop --arrivals (the plan's process is tool-paced)"
        ),
        (
            ["--server", command, "--http", url, "--arrival-rate", "100/s", "--arrivals", "tool-paced"],
            "error: --arrivals: tool-paced: only a load tool given the rate ({rate} in --load, beside --server) spaces its own arrivals; choose poisson or uniform"
        ),
        (
            ["--server", command, "--http", url, "--load", "wrk -c{size} http://127.0.0.1:18408/", "--parse", "wrk"],
            "error: --load: has no {port}, but --server listens on the port poolsize picks, so the tool would load another server; write {port} where the tool takes the server's address, e.g. wrk http://127.0.0.1:{port}/"
        ),
        (
            ["--server", command, "--http", url, "--latency-slo", "50ms"],
            "error: --latency-slo: applies to open-loop sweeps; add --arrival-rate (e.g. --arrival-rate 800/s) or drop --latency-slo"
        ),
        (
            ["--connections", "8"],
            "error: --connections: sets the server sweep's load; add --server COMMAND or drop it"
        ),
        (
            ["--server", command, "--http", url, "--postgres", "postgresql://127.0.0.1:1/db", "--sql", "SELECT 1;"],
            "error: --postgres: sizes a connection pool in this process, not a server's; drop --server"
        ),
        (
            ["--ready-timeout", "10s"],
            "error: --ready-timeout: applies to a server sweep; add --server COMMAND or drop it"
        ),
        (
            ["--stop-signal", "INT"],
            "error: --stop-signal: applies to a server sweep; add --server COMMAND or drop it"
        ),
        (
            ["--server", command, "--http", url, "--stop-signal", "STOP"],
            "error: --stop-signal: 'STOP' is no signal a server is stopped with; give one of TERM, INT, QUIT, HUP, USR1, USR2 or KILL (SIGINT and INT are the same)"
        ),
        (
            ["--server", command, "--http", url, "--ready-timeout", "0s"],
            "error: --ready-timeout: must be 100ms to 1h, got 0s"
        ),
        (
            ["--server", command, "--http", url, "--connections", "0"],
            "error: --connections: must be 1 to 10000 requests in flight, got 0"
        ),
        (
            ["--server", command, "--http", url, "--connections", "2", "--sizes", "1,4,3", "--cores", "1"],
            "error: --connections: keeps 2 requests in flight, fewer than the largest size 4 (the listed sizes and the rules of thumb's), whose trial the driver, not the server, would limit; pass --connections 4 or more (the default is twice the largest size)"
        ),
    ])
    func aFlagThatCannotRunIsOneLine(arguments: [String], message: String) {
        let result = runCLI(["sweep"] + arguments)
        #expect(result.errors == [message])
        #expect(result.code == 64)
    }

    /// A dry run applies the run's descriptor check: a size whose connections this process may
    /// not open is refused before the run, in the run's own words, where the dry run passed it.
    @Test func aDryRunChecksTheDescriptorLimit() throws {
        let result = try BinaryRun.run(
            [
                "-c", "ulimit -n 256 || exit 97; exec \"$0\" \"$@\"", EndToEndTests.binary.path, "sweep", "--server",
                Self.command, "--http", Self.url, "--sizes", "300", "--dry-run",
            ], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.code == 64)
        let line =
            "error: --connections: 600 connections need 664 open files, and this process may open 256 (ulimit -n); pass at most 192, or raise the limit\n"
        #expect(result.stderr == line)
        // A recorded run's sizes (--sizes-from) are checked as listed ones: its size 300 gives
        // the driver 600 connections by default, not the 64 of `auto`.
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-sizes-300-\(UUID())")
        defer { try? FileManager.default.removeItem(at: run) }
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/run-io/trials.csv")
        let lines = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        var cells = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        cells[5] = "300"
        try (lines[0] + "\n" + cells.joined(separator: ",") + "\n").write(
            to: run.appendingPathComponent("trials.csv"), atomically: true, encoding: .utf8)
        let fromRun = try BinaryRun.run(
            [
                "-c", "ulimit -n 256 || exit 97; exec \"$0\" \"$@\"", EndToEndTests.binary.path, "sweep", "--server",
                Self.command, "--http", Self.url, "--sizes-from", run.path, "--dry-run",
            ], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(fromRun.code == 64)
        #expect(fromRun.stderr == line)
    }

    /// A scratch directory, and the `--server` command of `poolsize serve` whose shell notes
    /// its pid (the server's session) in `pids` before it execs the server.
    static func serve(in directory: URL) -> (command: String, pids: URL) {
        let pids = directory.appendingPathComponent("pids")
        let command =
            "sh -c 'echo $$ >> \(pids.path); exec \(EndToEndTests.binary.path) serve --threads {size} --port {port} --cpu 500us --delay 1ms --quiet'"
        return (command, pids)
    }

    /// `--stop-signal INT`: every server of the sweep (the low-load phase's and one per trial)
    /// is stopped with SIGINT, never SIGTERM: the server's shell notes the signal it was
    /// stopped by; the report says so, and no server is left.
    @Test func eachServerIsStoppedWithTheSignalAsked() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-stop-signal-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids"), signals = dir.appendingPathComponent("signals")
        defer { Self.killLeftovers(pids) }
        let command =
            "sh -c 'echo $$ >> \(pids.path); trap \"echo INT >> \(signals.path); exit 0\" INT; trap \"echo TERM >> \(signals.path); exit 0\" TERM; \(EndToEndTests.binary.path) serve --threads {size} --port {port} --cpu 500us --delay 1ms --quiet & wait'"
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server", command, "--http", "http://127.0.0.1:{port}/", "--stop-signal", "sigint", "--sizes",
            "1,2", "--cores", "1", "--repeat", "1", "--trial-ms", "500", "--quiet", "--out", run.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(Self.leftovers(pids).isEmpty)
        let started = ((try? String(contentsOf: pids, encoding: .utf8)) ?? "").split(separator: "\n").count
        let stopped = ((try? String(contentsOf: signals, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(started >= 3 && stopped.count == started, "\(started) started, stopped by \(stopped)")
        #expect(stopped.allSatisfy { $0 == "INT" }, "\(stopped)")
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains(" --quiet & wait'`, stopped with SIGINT; loaded at "), "\(report)")
    }

    /// Processes still alive in the sessions of the servers noted in `pids`.
    static func leftovers(_ pids: URL) -> [Int32] {
        let text = (try? String(contentsOf: pids, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).compactMap { Int32($0) }.flatMap {
            ServerProcess.processes(inSession: $0)
        }
    }

    /// Kills what `leftovers` finds: a failed test's servers.
    static func killLeftovers(_ pids: URL) {
        for pid in leftovers(pids) { kill(pid, SIGKILL) }
    }

    /// The data rows of trials.csv, each split into fields by column name (no field of a
    /// server's row holds a comma).
    static func trials(_ run: URL) throws -> (header: String, rows: [[String: String]]) {
        // Read as the report reads it (RFC 4180): a quoted cell may hold a comma.
        let path = run.appendingPathComponent("trials.csv").path
        let table = try CSVTable.load(path: path)
        let header = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
        let rows = table.rows.map { Dictionary(uniqueKeysWithValues: zip(table.header, $0)) }
        return (String(header), rows)
    }

    static let trialsHeader =
        "run_id,workload,pool,qos,primitive,pool_size,repetition,tasks,wall_s,throughput_per_s,cpu_us_per_task,wait_us_per_task,wait_cpu_ratio,utilization,peak_concurrency,threads,effective_nice,integrity,critical_sections,latency_p50_us,latency_p90_us,latency_p99_us,latency_p999_us,latency_max_us,exec_p50_us,exec_p99_us,voluntary_ctx_switches,involuntary_ctx_switches,max_rss_kb,process_threads,other_load,errors,invalid_reason,arrival_rate_per_s,offered_per_s,backlog_mean,backlog_max,backlog_growth,stable,unfinished,dispatch_lag_p99_us,size_steps,driver_cpu_us_per_request,server_processes,server_interpreter_lock,server_connection_per_request,db_snapshots,db_errors,db_backend_cpu_s,db_lock_samples,db_lwlock_samples,db_io_samples,db_client_samples,db_timeout_samples,db_cpu_samples,db_other_samples,db_peak_connections,window_end,throughput_margin"

    /// A whole sweep of `poolsize serve`: the plan records the server (the URL's password
    /// masked, in no file of the run), the trials are the server's with the driver's cost, the
    /// console names the target, and no server is left.
    @Test func aServerSweepRecordsItsTargetAndLeavesNothingRunning() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-server-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (command, pids) = Self.serve(in: dir)
        defer { Self.killLeftovers(pids) }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server", command, "--http", "http://u:secret@127.0.0.1:{port}/", "--cores", "1", "--sizes",
            "1,2", "--repeat",
            "1", "--warmup", "0", "--trial-ms", "300", "--quiet", "--out", run.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(Self.leftovers(pids).isEmpty)
        let shownCommand =
            "sh -c 'echo $$ >> \(pids.path); exec \(EndToEndTests.binary.path) serve --threads {size} --port {port} --cpu 500us --delay 1ms --quiet'"
        #expect(
            result.stdout.split(separator: "\n").first.map(String.init)
                == "workload server-sh: server: \(shownCommand) at GET http://REDACTED@127.0.0.1:{port}/")
        let machine = try JSONSerialization.jsonObject(
            with: Data(contentsOf: run.appendingPathComponent("machine.json")))
        let plan = (machine as? [String: Any])?["plan"] as? [String: Any]
        let target = plan?["target"] as? [String: Any]
        let server = target?["server"] as? [String: Any]
        #expect(target?["kind"] as? String == "server")
        #expect(server?["command"] as? String == shownCommand)
        #expect(server?["url"] as? String == "http://REDACTED@127.0.0.1:{port}/")
        #expect((server?["connections"] as? NSNumber)?.intValue == 64)
        #expect((server?["ready_timeout_seconds"] as? NSNumber)?.doubleValue == 30)
        for name in try FileManager.default.subpathsOfDirectory(atPath: run.path) {
            let data = (try? Data(contentsOf: run.appendingPathComponent(name))) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains("secret"), "\(name) holds the password")
        }
        let (header, rows) = try Self.trials(run)
        #expect(header == Self.trialsHeader)
        // The listed sizes and the rules of thumb's on 1 core (1, 2, 3), each once, in a seeded order.
        #expect(rows.compactMap { $0["pool_size"] }.sorted() == ["1", "2", "3"])
        for row in rows {
            #expect(row["pool"] == "server" && row["qos"] == "default" && row["primitive"] == "none")
            #expect((Double(row["driver_cpu_us_per_request"] ?? "") ?? 0) > 0, "\(row)")
            #expect((Double(row["throughput_per_s"] ?? "") ?? 0) > 0 && row["errors"] == "0", "\(row)")
            #expect((Int(row["process_threads"] ?? "") ?? 0) >= 1 && (Int(row["max_rss_kb"] ?? "") ?? 0) > 0)
            #expect(row["server_connection_per_request"] == "0", "one process listens: connections kept alive")
        }
        // One server for the low-load phase, one per trial (more when a busy trial is retried).
        #expect(((try? String(contentsOf: pids, encoding: .utf8)) ?? "").split(separator: "\n").count >= 4)
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("--http 'http://REDACTED@127.0.0.1:{port}/'"))
        #expect(report.contains("| server | default | none | **"))
    }

    /// An open-loop server sweep of `poolsize serve --workers N`, each worker holding a request
    /// 10 ms (1 ms of CPU, then 9 ms asleep), at 400/s with p99 ≤ 50 ms: by Little's law 4
    /// workers are busy on average, the least that can keep up (at best just, whether it does
    /// in one trial is chance), and 2 and 3 cannot (they carry 200 and 300 a second). The
    /// recommended size met the objective in its trial and the size measured below it did not;
    /// the console says what each rule of thumb gives at the rate, and no server is left.
    @Test func anOpenLoopServerSweepRecommendsTheSmallestSizeThatMeetsTheObjective() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-server-open-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids")
        defer { Self.killLeftovers(pids) }
        let command =
            "sh -c 'echo $$ >> \(pids.path); exec \(EndToEndTests.binary.path) serve --workers {size} --port {port} --cpu 1ms --delay 9ms --quiet'"
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server", command, "--http", "http://127.0.0.1:{port}/", "--arrival-rate", "400/s",
            "--latency-slo", "50ms", "--sizes", "2,4,8,16", "--cores", "2", "--repeat", "1", "--trial-ms", "2000",
            "--quiet", "--out", run.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(Self.leftovers(pids).isEmpty)
        let rows = try Self.trials(run).rows
        // The listed sizes and the rules' 2, 3 and 5 on 2 cores, all at 400/s.
        #expect(rows.compactMap { $0["pool_size"] }.sorted { Int($0)! < Int($1)! } == ["2", "3", "4", "5", "8", "16"])
        #expect(
            rows.allSatisfy { Double($0["arrival_rate_per_s"] ?? "") == 400 && $0["invalid_reason"] == "" }, "\(rows)")
        func meets(_ row: [String: String]) -> Bool {
            row["stable"] == "yes" && (Double(row["latency_p99_us"] ?? "") ?? .infinity) <= 50_000
        }
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("recommended queue count: ") })
        let recommended = try #require(Int(line.dropFirst("recommended queue count: ".count).prefix { $0.isNumber }))
        #expect([4, 5, 8, 16].contains(recommended), "\(line)")
        let chosen = try #require(rows.first { $0["pool_size"] == String(recommended) })
        #expect(meets(chosen), "\(chosen)")
        let below = try #require(
            rows.filter { Int($0["pool_size"]!)! < recommended }.max { Int($0["pool_size"]!)! < Int($1["pool_size"]!)! }
        )
        #expect(!meets(below), "\(below)")
        for size in ["2", "3"] {
            #expect(rows.first { $0["pool_size"] == size }?["stable"] == "no")
        }
        #expect(result.stdout.contains("rules of thumb on 2 cores, measured in this run:"))
        #expect(result.stdout.contains("  cores = 2: does not keep up with 400/s (carried "))
        // The driver's connections: at least 400/s × twice the 50 ms objective, at least 64.
        let machine = try JSONSerialization.jsonObject(
            with: Data(contentsOf: run.appendingPathComponent("machine.json")))
        let server = (((machine as? [String: Any])?["plan"] as? [String: Any])?["target"] as? [String: Any])?["server"]
        #expect(((server as? [String: Any])?["connections"] as? NSNumber)?.intValue == 64)
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            report.contains("with poisson arrivals at 400/s over at most 64 connections from one event-driven thread"))
        #expect(report.contains("- 2 × cores + 1 = 5: "))
    }

    /// A server that exits during its trial (at size 2 it stops by itself after a second of a
    /// three-second trial): that trial is kept, invalid with why, and no size is recommended
    /// from it; the sweep ends normally and leaves nothing running.
    @Test func aTrialWhoseServerExitsIsKeptButNeverRecommended() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-server-exit-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids")
        defer { Self.killLeftovers(pids) }
        let serve = "\(EndToEndTests.binary.path) serve --threads {size} --port {port} --cpu 200us --quiet"
        let command =
            "sh -c 'echo $$ >> \(pids.path); if [ {size} -gt 1 ]; then exec \(serve) --duration 1s; fi; exec \(serve)'"
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server", command, "--http", "http://127.0.0.1:{port}/", "--cores", "1", "--sizes", "1,2",
            "--repeat", "1",
            "--warmup", "0", "--trial-ms", "3000", "--quiet", "--out", run.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(Self.leftovers(pids).isEmpty)
        let lines = try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8).split(
            separator: "\n")
        // Sizes 1 and 2 and the rules' 3 (on 1 core): the servers of 2 and 3 exit during their trials.
        #expect(lines.count == 4)
        let exited = lines.filter {
            $0.contains(",server,default,none,2,") || $0.contains(",server,default,none,3,")
        }
        #expect(exited.count == 2 && exited.allSatisfy { $0.contains("exited with status 0") }, "\(exited)")
        let file =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: run.appendingPathComponent("recommendation.json"))) as? [String: Any]
        #expect((file?["recommended_queue_count"] as? NSNumber)?.intValue == 1)
        #expect((file?["peak_pool_size"] as? NSNumber)?.intValue == 1)
    }

    /// A server sweep interrupted after its first trial keeps it and stops its server; resumed
    /// with `--resume DIR` alone, it rebuilds the sweep from the run's record, runs only the
    /// trials it lacks and ends with all of them. The
    /// interrupt cannot come too late: until the test opens a gate (a file), each server start
    /// after the first trial is on disk waits, so the sweep cannot finish its trials while this
    /// test's poll is starved by the suites running beside it (with a plain server, a CI run
    /// saw all six trials done before the interrupt).
    @Test func anInterruptedServerSweepResumes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-server-resume-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids")
        let run = dir.appendingPathComponent("run")
        let gate = dir.appendingPathComponent("gate")
        let command =
            "sh -c 'echo $$ >> \(pids.path); while [ \"$(cat \(run.path)/trials.csv 2>/dev/null | wc -l)\" -ge 2 ] && [ ! -f \(gate.path) ]; do sleep 0.05; done; exec \(EndToEndTests.binary.path) serve --threads {size} --port {port} --cpu 500us --delay 1ms --quiet'"
        defer { Self.killLeftovers(pids) }
        let flags = [
            "sweep", "--server", command, "--http", "http://127.0.0.1:{port}/", "--cores", "1", "--sizes",
            "1,2,3,4,5,6",
            "--repeat", "1",
            "--warmup", "0", "--trial-ms", "1500", "--quiet", "--plots", dir.appendingPathComponent("plots").path,
        ]
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = flags + ["--out", run.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupted once its first trial is on disk (up to two minutes).
        let file = run.appendingPathComponent("trials.csv")
        for _ in 0..<2_400 {
            let lines = (try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if lines >= 2 || !process.isRunning { break }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGINT)
        #expect(process.awaitExit().code == 130)
        #expect(Self.leftovers(pids).isEmpty, "the interrupted sweep left its server running")
        let kept = try Self.trials(run).rows
        #expect(kept.count >= 1 && kept.count < 6, "\(kept.count) trials before the interruption")
        FileManager.default.createFile(atPath: gate.path, contents: Data())
        // `--resume DIR` alone: the server's command, URL and plan come from the run's record.
        let resumed = try EndToEndTests.run(["sweep", "--resume", run.path, "--quiet"])
        #expect(resumed.code == 0, "\(resumed.stderr)")
        let rows = try Self.trials(run).rows
        #expect(rows.compactMap { $0["pool_size"] }.sorted() == ["1", "2", "3", "4", "5", "6"])
        #expect(Array(rows.prefix(kept.count)).map { $0["pool_size"] } == kept.map { $0["pool_size"] })
        #expect(Self.leftovers(pids).isEmpty)
    }
}
