import Foundation
import Testing

/// `poolsize sweep --arrival-rate` end to end through the binary: structure and verdicts that do
/// not depend on the machine's speed (a size below the rate's load cannot keep up anywhere).
@Suite(.serialized) struct OpenLoopCommandTests {
    static func rows(_ run: URL) throws -> [[String: String]] {
        let csv = try String(contentsOf: run.appendingPathComponent("trials.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test func anOpenLoopSweepWritesItsFiguresAndVerdict() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-openloop-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        // io tasks take 16 ms: 200/s keeps 3.2 queues busy, so 2 queues (125/s at most) fall behind.
        let result = try EndToEndTests.run([
            "sweep", "--workload", "io", "--arrival-rate", "200/s", "--latency-slo", "150ms", "--sizes", "2,8",
            "--repeat", "1",
            "--warmup", "0", "--trial-ms", "400", "--quiet", "--out", out.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 0 || result.code == 5, "stderr: \(result.stderr)")
        let rows = try Self.rows(out)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["arrival_rate_per_s"] == "200.000" })
        let two = try #require(rows.first { $0["pool_size"] == "2" })
        #expect(two["stable"] == "no")
        #expect(Double(two["throughput_per_s"]!)! < 130)
        #expect(Int(two["unfinished"]!)! > 0)
        let recommendation =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("recommendation.json")))
            as! [String: Any]
        #expect(recommendation["basis"] as? String == "latency-slo")
        #expect(recommendation["arrival_rate_per_s"] as? Double == 200)
        #expect(recommendation["latency_slo_us"] as? Double == 150_000)
        #expect(recommendation["slo_percentile"] as? Double == 99)
        let verdicts = try #require(recommendation["size_verdicts"] as? [[String: Any]])
        #expect(verdicts.map { $0["pool_size"] as? Int } == [2, 8])
        #expect(verdicts.first?["meets_slo"] as? Bool == false)
        if result.code == 0 {
            #expect(recommendation["recommended_queue_count"] as? Int == 8)
            #expect(recommendation["slo_met"] as? Bool == true)
            #expect(recommendation["slo_measured_us"] is Double)
        } else {
            #expect(result.stderr.contains("error: objective not met: "))
        }
        let machine =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("machine.json")))
            as! [String: Any]
        let plan = try #require(machine["plan"] as? [String: Any])
        let load = try #require(plan["load"] as? [String: Any])
        #expect(load["kind"] as? String == "open")
        let arrival = try #require(load["arrival"] as? [String: Any])
        #expect(arrival["rates_per_s"] as? [Double] == [200])
        #expect(arrival["process"] as? String == "poisson")
    }

    @Test func anObjectiveBelowTheTaskItselfExitsFiveWithTheFilesWritten() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-openloop-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        // A task sleeps 15 ms: no pool can answer within 5 ms, however fast the machine.
        let result = try EndToEndTests.run([
            "sweep", "--workload", "io", "--arrival-rate", "100/s", "--latency-slo", "5ms", "--sizes", "4", "--repeat",
            "1",
            "--warmup", "0", "--trial-ms", "300", "--quiet", "--out", out.path, "--plots",
            dir.appendingPathComponent("plots").path,
        ])
        #expect(result.code == 5)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasPrefix(
                "error: objective not met: At 100/s (poisson arrivals), no size met the 5.00 ms p99 objective, and none can: a task alone takes"
            ) == true)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("trials.csv").path))
        let recommendation =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("recommendation.json")))
            as! [String: Any]
        #expect(recommendation["slo_met"] as? Bool == false)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.md").path))
    }
}
