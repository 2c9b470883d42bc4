import Foundation
import Testing

/// Runs the built `poolsize` binary on a tiny sweep and checks that the files it leaves agree
/// with each other. No timing assertions: only structure and consistency.
@Suite(.serialized) struct EndToEndTests {
    static var binary: URL {
        // swift test puts the test bundle next to the products it built.
        let products = Bundle.main.bundleURL
        let candidates = [
            products.appendingPathComponent("poolsize"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "poolsize"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs the binary; `environment` and `directory` default to this process's.
    static func run(_ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil) throws -> (
        code: Int32, stdout: String, stderr: String
    ) {
        let result = try BinaryRun.run(arguments, environment: environment, directory: directory)
        return (result.code, result.stdout, result.stderr)
    }

    @Test func tinySweepLeavesConsistentFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("tiny.yaml")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "name: tiny\ncpu_us: 200\nwait_us: 600\ntrial_ms: 60\n".write(to: spec, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("run")

        let result = try Self.run([
            "sweep", "--workload", spec.path, "--sizes", "1,2,3", "--repeat", "2", "--warmup", "0", "--quiet", "--out",
            out.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").last.map(String.init) == out.path)
        #expect(result.stderr.isEmpty)

        let csv = try String(contentsOf: out.appendingPathComponent("trials.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = lines[0]
        #expect(lines.count == 1 + 3 * 2)
        let rows = lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(Set(rows.map { $0["pool_size"]! }) == ["1", "2", "3"])
        #expect(Set(rows.map { $0["repetition"]! }) == ["1", "2"])
        #expect(Set(rows.map { $0["workload"]! }) == ["tiny"])
        #expect(Set(rows.map { $0["pool"]! }) == ["queue-pool"])
        #expect(rows.allSatisfy { Int($0["peak_concurrency"]!)! <= Int($0["pool_size"]!)! })
        #expect(rows.allSatisfy { Double($0["throughput_per_s"]!)! > 0 })
        let runID = try #require(rows.first?["run_id"])
        #expect(rows.allSatisfy { $0["run_id"] == runID })

        let recommendation =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("recommendation.json")))
            as! [String: Any]
        #expect(recommendation["workload"] as? String == "tiny")
        let recommended = try #require(recommendation["recommended_queue_count"] as? Int)
        let knee = try #require(recommendation["knee_pool_size"] as? Int)
        #expect([1, 2, 3].contains(knee))
        // Sizes 1–3 of a W/C = 3 task on the machine's cores: either the knee, or the formula
        // when throughput was still rising at 3.
        let formula = try #require(recommendation["formula_queue_count"] as? Int)
        #expect(recommended == (recommendation["basis"] as? String == "formula" ? max(formula, 3) : knee))
        // The peak in the JSON is the best mean throughput in the CSV.
        var means: [String: [Double]] = [:]
        for row in rows { means[row["pool_size"]!, default: []].append(Double(row["throughput_per_s"]!)!) }
        let best = means.values.map { $0.reduce(0, +) / Double($0.count) }.max()!
        let peak = try #require(recommendation["peak_throughput_per_s"] as? Double)
        #expect(abs(peak - best) <= 0.002 * best)
        #expect(
            recommendation["cores"] as? Int
                == (try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("machine.json")))
                as! [String: Any]).machineCores)

        // The report and the charts' scripts land beside the data.
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.md").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("plots/throughput.gp").path))
        let summary = try String(contentsOf: out.appendingPathComponent("summary.txt"), encoding: .utf8)
        #expect(summary.contains("recommended queue count: \(recommended)"))
        #expect(result.stdout.contains(summary))
    }

    @Test func badInputLeavesNothingBehind() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-e2e-bad-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Self.run(["sweep", "--sizes", "0", "--out", dir.path])
        #expect(result.code == 64)
        #expect(result.stderr == "error: --sizes: pool size 0 is not positive; every size must be at least 1\n")
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func helpListsTheSubcommands() throws {
        let result = try Self.run(["--help"])
        #expect(result.code == 0)
        #expect(result.stdout.contains("sweep"))
        #expect(result.stdout.contains("list"))
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `machine.cores.effective` from machine.json.
    var machineCores: Int? {
        guard let machine = self["machine"] as? [String: Any], let cores = machine["cores"] as? [String: Any] else {
            return nil
        }
        return cores["effective"] as? Int
    }
}

@Suite(.serialized) struct EndToEndIntegrityTests {
    /// An unprotected critical section on 8 queues loses updates: the sweep writes its files,
    /// marks the rows, says so on stderr and exits 4.
    @Test func unprotectedSectionFailsTheSweep() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-e2e-race-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let spec = dir.appendingPathComponent("race.yaml")
        try "name: race\ncpu_us: 300\nwait_us: 300\ntrial_ms: 80\ncritical_us: 280\n".write(
            to: spec, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--workload", spec.path, "--primitive", "unprotected,mutex", "--sizes", "8", "--repeat", "1",
            "--warmup", "0", "--quiet", "--out", out.path, "--plots", dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 4)
        #expect(result.stderr.contains("INTEGRITY VIOLATED: queue-pool/default/unprotected size 8 rep 1"))
        #expect(result.stderr.contains("error: integrity violated: 1 trial(s) let two tasks into a critical section"))
        let csv = try String(contentsOf: out.appendingPathComponent("trials.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let integrity = Dictionary(uniqueKeysWithValues: rows.map { ($0[4], $0[17]) })
        #expect(integrity == ["unprotected": "violated", "mutex": "ok"])
    }
}

@Suite(.serialized) struct EndToEndInterruptTests {
    /// Ctrl-C, and SIGTERM alike, keep the finished trials and say how to continue and report
    /// on them; exit 130.
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptKeepsFinishedTrials(signal number: Int32) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-e2e-int-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let process = Process()
        process.executableURL = EndToEndTests.binary
        process.arguments = [
            "sweep", "--workload", "io", "--sizes", "1,2,4,8,16", "--repeat", "3", "--warmup", "0", "--quiet", "--out",
            out.path, "--plots", dir.appendingPathComponent("plots").path,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait (bounded) until at least one trial is on disk, then interrupt.
        let trials = out.appendingPathComponent("trials.csv")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline,
            ((try? String(contentsOf: trials, encoding: .utf8))?.split(separator: "\n").count ?? 0) < 2
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, number)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let processExit = process.awaitExit()
        #expect(processExit.code == 130)
        #expect(
            stderr.contains(
                "interrupted: the trials finished so far are in \(out.path)/trials.csv and summary.csv; 'poolsize sweep --resume \(out.path)' (with the same flags) runs the rest"
            ))
        let rows = try String(contentsOf: trials, encoding: .utf8).split(separator: "\n")
        #expect(rows.count >= 2)
        #expect(rows.count < 1 + 15)
    }
}
