import Foundation
import PoolSizeModel
import PoolSizeOutput
import Testing

/// poolsize's own sweep observed from outside: `poolsize sweep --http` against `poolsize serve`
/// with one pool size, observed by PID during its one long trial. The sweep writes its truth in
/// trials.csv (the pool size, throughput and C per task, from each task's thread CPU clock);
/// observe must find the pool's threads, their CPU and busy share. How near its busy threads and
/// C per task (with the sweep's throughput as λ) come to the sweep's own is an accuracy figure:
/// scripts/benchmark-observe.sh checks it ("poolsize's own sweep": C within 0.8–1.6×, busy
/// threads within 0.6 of the pool size).
@Suite(.serialized) struct ObserveSweepCommandTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observe-sweep-\(UUID())")

    /// Starts the binary with output to files in `root`; the caller kills and waits.
    func start(_ arguments: [String], name: String) throws -> (process: Process, stdout: URL, stderr: URL) {
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = arguments
        let out = root.appendingPathComponent("\(name).out"), err = root.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return (process, out, err)
    }

    /// Polls until `condition` holds or `seconds` pass.
    func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    @Test func theSweepsPoolAndItsCPUPerTask() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // SIGKILL, not SIGTERM: a test thread blocks signals and its children inherit the mask.
        let serve = try start(
            ["serve", "--port", "0", "--delay", "10ms", "--threads", "1", "--quiet", "--duration", "90s"], name: "serve"
        )
        defer { kill(serve.process.processIdentifier, SIGKILL); serve.process.awaitExit() }
        var url: String?
        _ = waitFor(20) {
            let text = (try? String(contentsOf: serve.stdout, encoding: .utf8)) ?? ""
            url = text.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init)
            return url != nil
        }
        let target = try #require(url, "poolsize serve printed its URL")
        let run = root.appendingPathComponent("sweep")
        let sweep = try start(
            [
                "sweep", "--http", target, "--sizes", "3", "--repeat", "1", "--warmup", "0", "--trial-ms", "8000",
                "--quiet",
                "--out", run.path, "--plots", root.appendingPathComponent("plots").path,
            ], name: "sweep")
        defer {
            if sweep.process.isRunning { kill(sweep.process.processIdentifier, SIGKILL) }; sweep.process.awaitExit()
        }
        // lowload.json is written as the low-load phase ends and the one trial begins.
        #expect(
            waitFor(90) {
                FileManager.default.fileExists(atPath: run.appendingPathComponent("lowload.json").path)
                    || !sweep.process.isRunning
            })
        Thread.sleep(forTimeInterval: 1)
        let observed = try ObserveCommandTests.run([
            "observe", String(sweep.process.processIdentifier), "--duration", "4s", "--rate", "50", "--format", "json",
        ])
        // 7: syscalls unreadable (Yama ptrace_scope 1 and the sweep is not observe's child); C
        // and the threads are read all the same.
        #expect([0, 7].contains(observed.code), "\(observed.stderr)")
        let sweepExit = sweep.process.awaitExit(timeout: 60)
        #expect(
            sweepExit.code == 0, "\((try? String(contentsOf: sweep.stderr, encoding: .utf8)) ?? "")")

        let trials = try CSVTable(
            text: try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8), path: "trials.csv")
        let size = try #require(try trials.numbers(trials.column("pool_size", flag: "")).first)
        let throughput = try #require(try trials.numbers(trials.column("throughput_per_s", flag: "")).first)
        let cpuPerTask = try #require(try trials.numbers(trials.column("cpu_us_per_task", flag: "")).first) / 1e6
        #expect(size == 3)

        let object = try #require(try JSONSerialization.jsonObject(with: Data(observed.stdout.utf8)) as? [String: Any])
        let pools = try #require(object["pools"] as? [[String: Any]])
        // The pool using the most CPU: the workers the sweep's queues run on (libdispatch names
        // them after its root queue).
        let workers = try #require(pools.first)
        let threads = try #require(workers["threads"] as? Int),
            meanThreads = try #require(workers["mean_threads"] as? Double)
        #expect(threads >= 3, "\(workers["name"] ?? "?"): \(threads) threads")
        #expect(throughput > 0 && cpuPerTask > 0, "the sweep's trial ran tasks")
        let cores = try #require(workers["cpu_cores"] as? Double)
        let observedCPU = cores / throughput
        #expect(observedCPU.isFinite && observedCPU > 0, "C per task: observed \(observedCPU) s")
        if observed.code == 0 {
            let busy = try #require((workers["busy"] as? [String: Double])?["low"]) * meanThreads
            #expect(busy.isFinite && busy > 0, "busy threads: observed \(busy)")
        }
    }
}
