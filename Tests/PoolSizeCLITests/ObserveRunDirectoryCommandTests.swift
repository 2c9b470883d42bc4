import Foundation
import Testing

/// `observe --out` (a run directory, then `report`, `plot` and `export` on it) and `--counter`
/// (a real command printing a running total), on the C pool the tests build
/// (Tests/Fixtures/observe-targets/pool_target.c), whose own figures are the truth. Bounds are
/// generous (a few seconds of samples on a shared machine), not a benchmark.
@Suite(.serialized) struct ObserveRunDirectoryCommandTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observe-out-\(UUID())")

    static func run(
        _ arguments: [String], timeoutSeconds: Double = 60
    ) throws -> (code: Int32, stdout: String, stderr: String) {
        try ObserveCommandTests.run(arguments, timeoutSeconds: timeoutSeconds)
    }

    @Test func outputFlagsAreCheckedBeforeAnythingRuns() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let plots = try Self.run(["observe", "1", "--plots", "p"])
        #expect(plots.code == 64)
        #expect(plots.stderr == "error: --plots: places the charts of --out's run directory; give --out DIR too\n")
        let force = try Self.run(["observe", "1", "--force"])
        #expect(force.stderr == "error: --force: replaces the run directory --out names; give --out DIR too\n")
        let taken = root.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        try "{}".write(to: taken.appendingPathComponent("observation.json"), atomically: true, encoding: .utf8)
        // Refused before the target starts: the command it would have run leaves no mark.
        let marker = root.appendingPathComponent("target-ran")
        let existing = try Self.run([
            "observe", "--duration", "20s", "--out", taken.path, "--", "/bin/sh", "-c", "echo > \"$0\"; sleep 30",
            marker.path,
        ])
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the target was started")
        #expect(existing.code == 73)
        #expect(
            existing.stderr
                == "error: --out \(taken.path): an observation's run directory is already there (it has "
                + "observation.json); pass --force to replace it, or choose another --out\n"
        )
        let both = try Self.run(["observe", "1", "--counter", "true", "--throughput", "5/s"])
        #expect(both.stderr == "error: --counter: and --throughput both give the task rate; keep one\n")
    }

    /// Issue 31, finding 8: `--out` on a directory that holds no run (pools/ with a file of the
    /// user's, summary.csv, report.md, machine.json) emptied pools/ and replaced the rest, exit
    /// 0. Now refused (73) before the target starts, every file left as it was; with --force the
    /// observation's files are written and pools/worker.go stays.
    @Test func aDirectoryThatHoldsNoRunIsLeftAlone() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let v = root.appendingPathComponent("v")
        try FileManager.default.createDirectory(
            at: v.appendingPathComponent("pools"), withIntermediateDirectories: true)
        let files = [
            "pools/worker.go": "code\n", "summary.csv": "mine\n", "report.md": "# mine\n", "machine.json": "{}\n",
        ]
        for (name, text) in files {
            try text.write(to: v.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let marker = root.appendingPathComponent("target-ran")
        let refused = try Self.run([
            "observe", "--duration", "1s", "--out", v.path, "--", "/bin/sh", "-c", "echo > \"$0\"; sleep 3",
            marker.path,
        ])
        #expect(refused.code == 73)
        #expect(
            refused.stderr
                == "error: --out \(v.path): it is not empty and holds no run (machine.json, pools/, report.md, "
                + "summary.csv); choose a new or empty directory, or pass --force to write the run into it (files of "
                + "the same names are replaced, nothing else is touched)\n")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the target was started")
        for (name, text) in files {
            #expect(try String(contentsOf: v.appendingPathComponent(name), encoding: .utf8) == text, "\(name)")
        }
        let forced = try Self.run([
            "observe", "--duration", "1s", "--out", v.path, "--force", "--plots", root.appendingPathComponent("p").path,
            "--", "/bin/sleep", "3",
        ])
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: v.appendingPathComponent("pools/worker.go"), encoding: .utf8) == "code\n")
        #expect(try String(contentsOf: v.appendingPathComponent("summary.csv"), encoding: .utf8) == "mine\n")
        #expect(FileManager.default.fileExists(atPath: v.appendingPathComponent("observation.json").path))
    }

    /// A counter that fails, prints no number or is not there: one line naming --counter, before
    /// the observation (the target started for it is stopped).
    @Test func aCounterThatGivesNoNumber() throws {
        let failing = try Self.run([
            "observe", "--duration", "20s", "--counter", "/bin/false", "--", "/bin/sleep", "30",
        ])
        #expect(failing.code == 64)
        #expect(
            failing.stderr
                == "error: --counter: the command exited with status 1 as the observation started; run it by hand to "
                + "see why\n"
        )
        let words = try Self.run([
            "observe", "--duration", "20s", "--counter", "echo 12 tasks", "--", "/bin/sleep", "30",
        ])
        #expect(words.code == 64)
        #expect(
            words.stderr
                == "error: --counter: the command printed '12 tasks' as the observation started, not one number; make "
                + "it print only the running total (pipe through awk '{print $N}' inside sh -c '…')\n"
        )
        let missing = try Self.run(["observe", "1", "--counter", "/nonexistent/counter"])
        #expect(missing.code == 66)
        #expect(
            missing.stderr
                == "error: /nonexistent/counter: not found; not an executable file; --counter runs a program on PATH "
                + "or at a path (write sh -c '…' for pipes)\n"
        )
    }

    /// `--counter 'cat FILE'` on the pool's own running total gives λ, and with it C per task.
    /// How near they come to the target's own rate and per-task CPU is an accuracy figure:
    /// scripts/benchmark-observe.sh checks it (λ within 25%, C within 30%, on its C targets).
    @Test
    func aCounterGivesTheTaskRate() throws {
        try #require(ObserveCommandTests.target != nil, "needs a C compiler: apt-get install gcc")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let target = try #require(ObserveCommandTests.target)
        let count = root.appendingPathComponent("tasks").path
        // There from the start, so the first read cannot come before the target made it.
        try "0\n".write(toFile: count, atomically: true, encoding: .utf8)
        let result = try Self.run([
            "observe", "--duration", "3s", "--rate", "50", "--format", "json", "--counter", "cat \(count)", "--pool",
            "worker",
            "--", target, "--workers", "4", "--rate", "40", "--io-ms", "20", "--cpu-ms", "5", "--count-file", count,
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let truth = try #require(ObserveCommandTests.truth(result.stderr), "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let counter = try #require(
            (object["settings"] as? [String: Any])?["counter"] as? [String: Any], "the counts are recorded")
        #expect(counter["command"] as? String == "cat \(count)")
        let worker = try #require((object["pools"] as? [[String: Any]])?.first { $0["name"] as? String == "worker" })
        let task = try #require(worker["per_task"] as? [String: Any], "per-task figures from the counted rate")
        #expect((truth["tasks"] ?? 0) > 0, "the target ran tasks: \(truth)")
        let rate = try #require(task["throughput_per_second"] as? Double)
        #expect(rate.isFinite && rate > 0, "counted \(rate)/s")
        let cpu = try #require(task["cpu_seconds"] as? Double)
        #expect(cpu.isFinite && cpu > 0, "C per task \(cpu) s")
    }

    /// `--out DIR`: the observation, a CSV per pool, the charts and the report; then `report`,
    /// `plot` and `export` read the directory back.
    @Test
    func aRunDirectoryAndWhatReadsIt() throws {
        try #require(ObserveCommandTests.target != nil, "needs a C compiler: apt-get install gcc")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = try #require(ObserveCommandTests.target)
        let out = root.appendingPathComponent("observation"), plots = root.appendingPathComponent("plots")
        let result = try Self.run([
            "observe", "--duration", "2s", "--rate", "50", "--out", out.path, "--plots", plots.path, "--", target,
            "--workers", "3",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(out.path + "\n"), "the table ends with the run directory, as sweep's does")
        for file in ["observation.json", "machine.json", "summary.txt", "report.md", "report.html", "pools/worker.csv"]
        {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file)")
        }
        let csv = try String(contentsOf: out.appendingPathComponent("pools/worker.csv"), encoding: .utf8)
        #expect(
            csv.hasPrefix(
                "pool,start_s,end_s,threads,cpu_cores,running,runnable,blocked_io,ambiguous,idle,samples\n"
                    + "worker,0.000,1.000,"
            ))
        // The 3 workers' mean count over the first second: a worker that started a moment after the
        // first sweep counts for the part of the second it was alive (2.999 was seen).
        let firstRow = csv.split(separator: "\n").dropFirst().first.map { $0.split(separator: ",") } ?? []
        let threads = firstRow.count > 3 ? Double(firstRow[3]) : nil
        #expect(threads.map { abs($0 - 3) < 0.05 } == true, "\(csv)")
        #expect(csv.split(separator: "\n").count == 3, "a header and two seconds")
        #expect(FileManager.default.fileExists(atPath: plots.appendingPathComponent("shares-worker.gp").path))

        let metrics = try Self.run(["export", out.path, "--to", "openmetrics"])
        #expect(metrics.code == 0, "\(metrics.stderr)")
        #expect(
            metrics.stdout.contains("poolsize_observed_threads{target=\"")
                && metrics.stdout.contains("pool=\"worker\"} 3\n"))
        #expect(metrics.stdout.hasSuffix("# EOF\n"))
        let wrong = try Self.run(["export", out.path, "--to", "github-benchmark"])
        #expect(wrong.code == 64)
        #expect(
            wrong.stderr
                == "error: --to: github-benchmark exports a sweep's curve; \(out.path) holds an observation "
                + "(observation.json), which exports --to openmetrics\n"
        )

        try FileManager.default.removeItem(at: out.appendingPathComponent("report.md"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("pools"))
        let report = try Self.run(["report", out.path, "--plots", plots.path])
        #expect(report.code == 0, "\(report.stderr)")
        #expect(report.stdout == out.appendingPathComponent("report.md").path + "\n")
        #expect(
            try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8).contains(
                "## Pool `worker`"))
        #expect(
            FileManager.default.fileExists(atPath: out.appendingPathComponent("pools/worker.csv").path),
            "report rewrites the CSV files from observation.json")
    }
}
