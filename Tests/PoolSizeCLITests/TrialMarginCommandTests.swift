import Foundation
import Testing

/// A sweep's trials end once their throughput is known (`--trial-margin`, on by default), and
/// trials.csv and the console say how each window ended; `--trial-ms` alone fixes the length.
/// No timing is asserted: a window that ended `known` did so within its margin and before its
/// planned length, whatever the machine's speed made of it.
@Suite(.serialized) struct TrialMarginCommandTests {
    static func rows(_ run: URL) throws -> [[String: String]] {
        let csv = try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    static func sweep(_ extra: [String], in dir: URL) throws -> (stdout: String, rows: [[String: String]]) {
        let spec = dir.appendingPathComponent("steady.yaml")
        // 5 ms tasks: at 16 queues 3,200 a second, so 300 completions take 0.1 s of a 0.64 s window.
        try "name: steady\ncpu_us: 200\nwait_us: 4800\ntrial_ms: 800\n".write(
            to: spec, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("run-\(extra.count)")
        let result = try EndToEndTests.run(
            ["sweep", "--workload", spec.path, "--sizes", "8,16", "--repeat", "2", "--warmup", "0", "--out", out.path]
                + extra)
        #expect(result.code == 0, "stderr: \(result.stderr)")
        return (result.stdout, try rows(out))
    }

    @Test func aDefaultSweepsWindowsSayHowTheyEnded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-margin-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (stdout, rows) = try Self.sweep([], in: dir)
        #expect(rows.count == 4)
        for row in rows {
            let end = try #require(row["window_end"])
            #expect(["known", "longest"].contains(end), "\(row)")
            let wall = try #require(Double(row["wall_s"] ?? ""))
            if end == "known" {
                let margin = try #require(Double(row["throughput_margin"] ?? ""))
                #expect(margin <= 0.02)
                #expect(wall < 0.64)
            } else {
                #expect(wall >= 0.64)
            }
        }
        let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("trials: ") })
        let known = rows.filter { $0["window_end"] == "known" }.count
        #expect(
            known == 0
                ? line.hasPrefix("trials: all 4 ran their whole window (")
                : line.hasPrefix("trials: \(known) of 4 ended once their throughput was known within ±2% (windows of "),
            "\(line)")
    }

    @Test func aLengthGivenAloneRunsEveryWindowWhole() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-margin-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (stdout, rows) = try Self.sweep(["--trial-ms", "300"], in: dir)
        #expect(rows.map { $0["window_end"] } == Array(repeating: "planned", count: 4))
        #expect(rows.allSatisfy { (Double($0["wall_s"] ?? "") ?? 0) >= 0.24 })
        #expect(!stdout.contains("trials: "))
    }
}
