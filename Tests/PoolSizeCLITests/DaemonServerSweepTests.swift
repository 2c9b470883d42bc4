import Foundation
import PoolSizeModel
import Testing

/// A server sweep whose server does its work in a daemon of its own session (`setsid`): the
/// processes poolsize watches (the session it started the command in) use no CPU while the
/// daemon answers. Before, the sweep wrote C = 0 into lowload.json ("W/C 0.000"), measured every
/// trial only to leave each out ("no CPU time per task measured"), and its own `report`,
/// `compare`, `export` and `plan --from` refused the run as damaged ("key
/// 'cpu_microseconds_per_task' is 0, which no measurement gives").
@Suite(.serialized) struct DaemonServerSweepTests {
    @Test func theSweepSaysTheServersCPUWasNotSeenAndItsFilesStayReadable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-daemon-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The daemon leads a session of its own; its pid is its session's, noted for the cleanup.
        let daemons = dir.appendingPathComponent("daemons")
        let serve =
            "\(EndToEndTests.binary.path) serve --threads {size} --port {port} --cpu 500us --delay 1ms --quiet"
        let command = "sh -c 'setsid sh -c \"echo \\$\\$ >> \(daemons.path); exec \(serve)\" & wait'"
        defer {
            let text = (try? String(contentsOf: daemons, encoding: .utf8)) ?? ""
            for pid in text.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        }
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--server", command, "--http", "http://127.0.0.1:{port}/", "--cores", "1", "--sizes", "1,2",
            "--repeat", "1", "--warmup", "0", "--trial-ms", "300", "--quiet", "--out", run.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 5)
        let stderr = result.stderr.replacingOccurrences(
            of: #"answered \d+ requests"#, with: "answered N requests", options: .regularExpression)
        #expect(
            stderr
                == "error: measurement failed: the server's CPU was not seen: it answered N requests with one in flight while the processes of the session poolsize started it in used no CPU, so its work runs in processes that left that session (a daemon that calls setsid or detaches, or a server another process starts); without C there is no W/C, no formula and no trial the sweep could keep. Run the server in the foreground in --server (no setsid, daemon mode or service manager)\n"
        )
        // The daemon was stopped with the sweep: the session poolsize started ends whatever left it.
        let noted = ((try? String(contentsOf: daemons, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline)
            .compactMap { Int32($0) }
        #expect(!noted.isEmpty)
        for pid in noted { #expect(kill(pid, 0) != 0, "daemon \(pid) is still running") }
        // No C = 0 is written as a measurement: no lowload.json, no trial.
        #expect(!FileManager.default.fileExists(atPath: run.appendingPathComponent("lowload.json").path))
        let trials = try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8)
        #expect(trials.split(separator: "\n").count == 1)
        // Its own readers take what it wrote, each saying what the run lacks, none that it is damaged.
        let report = try EndToEndTests.run(["report", run.path])
        #expect(report.code == 0, "\(report.stderr)")
        let plan = try EndToEndTests.run(["plan", "--from", run.path, "--target-rate", "100/s"])
        #expect(
            plan.stderr
                == "error: \(run.appendingPathComponent("lowload.json").path): not found; the run has no low-load W and C (it stopped before measuring them); rerun the sweep or pass --wait and --cpu\n"
        )
        #expect(plan.code == 66)
        let compare = try EndToEndTests.run(["compare", run.path, run.path])
        #expect(compare.code == 3)
        #expect(compare.stderr.hasSuffix("has no finished trials\n"), "\(compare.stderr)")
        let export = try EndToEndTests.run(["export", run.path, "--to", "openmetrics"])
        #expect(export.stderr == "error: \(run.path): has no trials to export; run 'poolsize sweep' into it first\n")
        for output in [report.stderr, plan.stderr, compare.stderr, export.stderr] {
            #expect(!output.contains("damaged"), "\(output)")
        }
    }
}
