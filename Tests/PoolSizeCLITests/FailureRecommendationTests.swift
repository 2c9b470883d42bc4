import Foundation
import Testing

/// Failures never become a recommendation: a sweep whose trials failed, or whose dispatcher
/// could not offer the rate, writes its files and exits 5 with the reason; a rate whose load is
/// beyond any pool a sweep measures is refused by name.
@Suite(.serialized) struct FailureRecommendationTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-failing-\(UUID())")
    var run: URL { scratch.appendingPathComponent("run") }

    func sweep(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try EndToEndTests.run(
            ["sweep"] + arguments + [
                "--quiet", "--out", run.path, "--plots", scratch.appendingPathComponent("plots").path,
            ],
            environment: ["PATH": "/usr/bin:/bin"], directory: scratch)
    }

    /// A task that fails whenever another runs beside it: alone (the low-load phase, size 1) it
    /// always succeeds; at 4 queues most tasks find the lock taken. Sizing on the successes
    /// would recommend a size whose tasks fail.
    @Test func aSweepOfFailingTrialsRecommendsNothing() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let lock = scratch.appendingPathComponent("lock").path
        let result = try sweep([
            "--exec", "sh -c 'mkdir \(lock) 2>/dev/null || exit 1; sleep 0.01; rmdir \(lock)'",
            "--sizes", "1,4", "--repeat", "1", "--warmup", "0", "--trial-ms", "300",
        ])
        #expect(result.code == 5, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "error: measurement failed: no recommendation: 1 of 2 trials lost more than 1% of their tasks (at size 4; the first: "
            ), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("; the trials are in \(run.path)/trials.csv\n"))
        #expect(
            result.stdout.contains("\nno recommendation: 1 of 2 trials lost more than 1% of their tasks"),
            "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: run.appendingPathComponent("trials.csv").path))
        #expect(FileManager.default.fileExists(atPath: run.appendingPathComponent("summary.txt").path))
        #expect(!FileManager.default.fileExists(atPath: run.appendingPathComponent("recommendation.json").path))
        let rows = try OpenLoopCommandTests.rows(run)
        let four = try #require(rows.first { $0["pool_size"] == "4" })
        #expect(four["invalid_reason"]?.contains("tasks failed (") == true, "\(four)")
        // The failure share is at most 100% (it read 100.6% when failures counted as tasks).
        let summary = try String(contentsOf: run.appendingPathComponent("summary.csv"), encoding: .utf8)
        let lines = summary.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let rate = try #require(lines[0].firstIndex(of: "error_rate"))
        #expect(lines.dropFirst().allSatisfy { (Double($0[rate]) ?? 2) <= 1 })
    }

    /// Issue 24, case 1 over HTTP (libcurl): `poolsize serve` killed once the low-load phase is
    /// done, so every trial's requests are refused. It recommended 20 with exit 0; now no size is
    /// recommended (exit 5), the files are written and each trial says why it is invalid.
    @Test func aSweepWhoseServerDiedRecommendsNothing() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let server = try ServeProcess(["--delay", "2ms"])
        let sweep = Process()
        sweep.executableURL = EndToEndTests.binary
        sweep.arguments = [
            "sweep", "--http", server.url, "--sizes", "1,2,4,8", "--repeat", "1", "--warmup", "0", "--trial-ms", "300",
            "--quiet",
            "--out", run.path, "--plots", scratch.appendingPathComponent("plots").path,
        ]
        let err = Pipe()
        sweep.standardError = err
        sweep.standardOutput = FileHandle.nullDevice
        try sweep.run()
        // lowload.json is written as the low-load phase ends, before the first trial.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, sweep.isRunning,
            !FileManager.default.fileExists(atPath: run.appendingPathComponent("lowload.json").path)
        { Thread.sleep(forTimeInterval: 0.01) }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.awaitExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let sweepExit = sweep.awaitExit()
        #expect(sweepExit.code == 5, "\(stderr)")
        #expect(
            stderr.hasPrefix(
                "error: measurement failed: no recommendation: 4 of 4 trials lost more than 1% of their tasks (at size 1, 2, 4, 8; the first: "
            ), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: run.appendingPathComponent("recommendation.json").path))
        let rows = try OpenLoopCommandTests.rows(run)
        #expect(rows.count == 4)
        for row in rows {
            #expect(row["invalid_reason"]?.contains("tasks failed (") == true, "\(row)")
            // Failed requests are no throughput: a refused connection returns at once.
            #expect((Double(row["throughput_per_s"] ?? "") ?? 1e9) < 50, "\(row)")
        }
        let summary = try String(contentsOf: run.appendingPathComponent("summary.csv"), encoding: .utf8)
        let lines = summary.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let rate = try #require(lines[0].firstIndex(of: "error_rate"))
        #expect(lines.dropFirst().allSatisfy { (Double($0[rate]) ?? 2) <= 1 })
    }

    /// 1,000,000 tasks/s of 16 ms keeps 16,000 queues busy: no size auto could pick carries it.
    @Test func aRateBeyondAnyPoolIsRefusedNamingTheFlag() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try sweep(["--workload", "io", "--arrival-rate", "1000000/s", "--repeat", "1", "--warmup", "0"])
        #expect(result.code == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: --arrival-rate: 1000000/s keeps "), "\(result.stderr)")
        #expect(result.stderr.contains("queues busy on average by Little's law"))
        #expect(result.stderr.contains("beyond the 4096 queues a sweep measures; offer at most "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
