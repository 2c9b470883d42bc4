import Foundation
import Testing

/// `--format json` parses as JSON of the documented shape, with `schema_version`.
@Suite(.serialized) struct JSONFormatTests {
    @Test func listAsJSON() throws {
        let result = try EndToEndTests.run(["list", "--format", "json"])
        #expect(result.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["schema_version"] as? Int == 1)
        let workloads = try #require(json["workloads"] as? [[String: Any]])
        #expect(workloads.map { $0["name"] as? String }.contains("io"))
        let io = try #require(workloads.first { $0["name"] as? String == "io" })
        #expect(io["cpu_us"] as? Double == 1000 && io["wait_us"] as? Double == 15000)
        #expect((json["pools"] as? [[String: Any]])?.first?["name"] as? String == "queue-pool")
        #expect((json["primitives"] as? [[String: Any]])?.isEmpty == false)
        #expect((json["qos_tiers"] as? [[String: Any]])?.count == 5)
    }

    @Test func sweepAsJSON() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-json-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run([
            "sweep", "--workload", "cpu", "--sizes", "1,2", "--repeat", "2", "--warmup", "0", "--trial-ms", "100",
            "--quiet",
            "--out", out.path, "--plots", dir.appendingPathComponent("plots").path, "--format", "json",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "stdout is one JSON document: \(result.stdout)")
        #expect(json["schema_version"] as? Int == 1)
        #expect(json["run_directory"] as? String == out.path)
        #expect(json["workload"] as? String == "cpu")
        #expect(json["warnings"] is [String])
        let configurations = try #require(json["configurations"] as? [[String: Any]])
        #expect(
            configurations.allSatisfy {
                ($0["throughput_per_s"] as? Double ?? 0) > 0 && [1, 2].contains($0["pool_size"] as? Int ?? 0)
            })
        #expect(json["low_load"] is [String: Any])
        // The files written carry the version too.
        let machine =
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("machine.json")))
            as? [String: Any]
        #expect(machine?["schema_version"] as? Int == 1)
    }
}
