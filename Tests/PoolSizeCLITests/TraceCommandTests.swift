import Foundation
import Testing

/// `poolsize sweep --trace FILE.csv`: a recorded trace replayed through the sweep.
@Suite(.serialized) struct TraceCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-trace-\(UUID())")

    func file(_ text: String) throws -> URL {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let url = scratch.appendingPathComponent("tiny.csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aTraceIsSweptAndItsFiguresReported() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let trace = try file("ts,cpu_us,wait_us\n1,200,600\n2,300,900\n3,250,700\n")
        let out = scratch.appendingPathComponent("run")
        let result = try EndToEndTests.run(
            [
                "sweep", "--trace", trace.path, "--sizes", "1,2", "--repeat", "1", "--warmup", "0", "--trial-ms", "40",
                "--quiet", "--out", out.path, "--plots", scratch.appendingPathComponent("plots").path,
            ], environment: ["PATH": "/nonexistent"], directory: scratch)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "workload trace-tiny: recorded trace tiny.csv: 3 rows; W/C 2.93 (Σ W / Σ C); C p50 250 µs, p99 299 µs; W p50 700 µs, p99 896 µs\n"
            ))
        let machine =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("machine.json")))
            as? [String: Any]
        let plan = try #require(machine?["plan"] as? [String: Any])
        let workload = try #require(plan["spec"] as? [String: Any])
        #expect(workload["name"] as? String == "trace-tiny")
        #expect(workload["cpu_microseconds"] as? Double == 250)
        let recommendation =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("recommendation.json")))
            as? [String: Any]
        #expect(abs((recommendation?["spec_wait_cpu_ratio"] as? Double ?? 0) - 2200.0 / 750.0) < 1e-9)  // Σ W / Σ C
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("the spec of a trace: its means; recorded trace tiny.csv: 3 rows"))
    }

    @Test func badTracesAndFlagsAreOneLine() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bad = try file("cpu_us,wait_us\n100,50\n100,-1\n")
        let result = try EndToEndTests.run([
            "sweep", "--trace", bad.path, "--out", scratch.appendingPathComponent("run").path,
        ])
        #expect(result.code == 65)
        #expect(result.stderr == "error: \(bad.path): line 3, column 'wait_us': -1 is negative; times are ≥ 0\n")
        let both = try EndToEndTests.run(["sweep", "--trace", bad.path, "--workload", "io"])
        #expect(both.code == 64)
        #expect(both.stderr == "error: --trace: replaces --workload; give one of them\n")
        let missing = try EndToEndTests.run(["sweep", "--trace", "/nonexistent/trace.csv"])
        #expect(missing.code == 66)
        #expect(
            missing.stderr
                == "error: /nonexistent/trace.csv: not found; --trace takes a CSV file with a header and the columns cpu_us,wait_us\n"
        )
    }
}
