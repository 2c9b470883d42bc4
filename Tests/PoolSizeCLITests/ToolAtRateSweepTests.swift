import Foundation
import Testing

/// `sweep --server … --arrival-rate R --load '… {rate} …'`: a real open-loop load tool
/// (Examples/load/rate-load.py, Python's standard library) given the rate, against `poolsize
/// serve --workers {size}` whose workers hold a request 10 ms each (at most 100 answers a second
/// per worker). No figure that depends on the machine's speed is asserted: a size of 1 cannot
/// carry 200 a second on any machine, and what a size that keeps up offered is the rate it was
/// given.
@Suite(.serialized) struct ToolAtRateSweepTests {
    static let tool = ServerGuideExampleTests.repository.appendingPathComponent("Examples/load/rate-load.py").path

    /// The expressions that read rate-load.py's summary.
    static let parse = [
        "--parse", #"sent (?<requests>\d+), dropped (?<dropped>\d+), senders (?<concurrency>\d+)"#,
        "--parse", #"failed (?<errors>\d+), in (?<duration>[\d.]+) s: (?<throughput>[\d.]+)/s"#,
        "--parse", #"mean (?<mean>\S+) p50 (?<p50>\S+) p90 (?<p90>\S+) p99 (?<p99>\S+) max (?<max>\S+)"#,
    ]

    static func sweep(_ dir: URL, pids: URL, rate: String, senders: Int, sizes: String, extra: [String] = [])
        throws -> (result: (code: Int32, stdout: String, stderr: String), run: URL)
    {
        let command =
            "sh -c 'echo $$ >> \(pids.path); exec \(EndToEndTests.binary.path) serve --workers {size} --port {port} --cpu 1ms --delay 9ms --quiet'"
        let run = dir.appendingPathComponent("run")
        let result = try EndToEndTests.run(
            [
                "sweep", "--server", command, "--http", "http://127.0.0.1:{port}/", "--arrival-rate", rate,
                "--load", "python3 \(tool) http://127.0.0.1:{port}/ {rate} 2 \(senders)",
            ] + parse + [
                "--sizes", sizes, "--cores", "2", "--repeat", "1", "--quiet", "--out", run.path, "--plots",
                dir.appendingPathComponent("plots").path,
            ] + extra)
        return (result, run)
    }

    /// At 200/s with 64 senders and no objective: every trial ran at the rate given (what a size
    /// that kept up offered is within 10% of 200/s), size 1 fell behind and stands as measured
    /// (its dropped arrivals waited on the server: 64 senders are more than it needs), the
    /// recommendation is a size that kept up, and the record says the arrivals were the tool's,
    /// with no backlog maximum, growth or lag measured. No server is left.
    @Test func theToolRunsEachTrialAtTheRate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-tool-rate-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids")
        defer { ServerSweepCommandTests.killLeftovers(pids) }
        let (result, run) = try Self.sweep(dir, pids: pids, rate: "200/s", senders: 64, sizes: "1,4,8")
        #expect(result.code == 0, "\(result.stderr)")
        #expect(ServerSweepCommandTests.leftovers(pids).isEmpty)
        let rows = try ServerSweepCommandTests.trials(run).rows
        #expect(rows.compactMap { $0["pool_size"] }.sorted { Int($0)! < Int($1)! } == ["1", "2", "3", "4", "5", "8"])
        for row in rows {
            #expect(Double(row["arrival_rate_per_s"] ?? "") == 200, "\(row)")
            #expect(row["backlog_max"] == "" && row["unfinished"] == "", "\(row)")
            #expect(row["backlog_growth"] == "nan" && row["dispatch_lag_p99_us"] == "nan", "\(row)")
            if row["stable"] == "yes" {
                #expect(abs((Double(row["offered_per_s"] ?? "") ?? 0) - 200) <= 20, "\(row)")
            }
        }
        let one = try #require(rows.first { $0["pool_size"] == "1" })
        #expect(one["invalid_reason"] == "" && one["stable"] == "no", "\(one)")
        #expect((Double(one["throughput_per_s"] ?? "") ?? .infinity) < 110, "\(one)")
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("recommended queue count: ") })
        let recommended = try #require(Int(line.dropFirst("recommended queue count: ".count).prefix { $0.isNumber }))
        let chosen = try #require(rows.first { $0["pool_size"] == String(recommended) })
        #expect(chosen["stable"] == "yes", "\(chosen)")
        #expect(result.stdout.contains("open loop: tool-paced arrivals at 200/s"))
        let machine = try String(contentsOf: run.appendingPathComponent("machine.json"), encoding: .utf8)
        #expect(machine.contains(#""process" : "tool-paced""#), "\(machine)")
        let report = try String(contentsOf: run.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("Tasks arrived at the times the load tool chose, given the rate"))

        // The run loses its size-8 trial, as an interrupted one would never have had it; the
        // record alone (`--resume DIR`, no other flag) runs it again, tool-paced at 200/s.
        let csv = run.appendingPathComponent("trials.csv")
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        let kept = lines.filter { !$0.contains(",server,default,none,8,") }
        #expect(kept.count == lines.count - 1)
        try (kept.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        let resumed = try EndToEndTests.run(["sweep", "--resume", run.path, "--quiet"])
        #expect(resumed.code == 0, "\(resumed.stderr)")
        #expect(ServerSweepCommandTests.leftovers(pids).isEmpty)
        let again = try ServerSweepCommandTests.trials(run).rows
        let eight = try #require(again.first { $0["pool_size"] == "8" }, "\(resumed.stderr)")
        #expect(Double(eight["arrival_rate_per_s"] ?? "") == 200 && eight["backlog_growth"] == "nan", "\(eight)")
        #expect(again.count == rows.count)
    }

    /// With 2 senders at 200/s and a 50 ms objective, a size of 1 keeps both busy and the tool
    /// drops arrivals it would have sent: the rate × twice the objective is 20 in flight, more
    /// than the tool had, so the queue was the tool's and the trial is invalid, saying so.
    @Test func aToolWithTooFewSendersHeldTheQueue() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-tool-few-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pids = dir.appendingPathComponent("pids")
        defer { ServerSweepCommandTests.killLeftovers(pids) }
        let (result, run) = try Self.sweep(
            dir, pids: pids, rate: "200/s", senders: 2, sizes: "1", extra: ["--latency-slo", "50ms"])
        #expect(ServerSweepCommandTests.leftovers(pids).isEmpty)
        let rows = try ServerSweepCommandTests.trials(run).rows
        let one = try #require(rows.first { $0["pool_size"] == "1" }, "\(result.stderr)")
        let reason = one["invalid_reason"] ?? ""
        #expect(reason.hasPrefix("python3 did not send "), "\(reason)")
        #expect(
            reason.contains(
                " arrivals (all 2 of its senders were busy), so the tool, not the server, held the queue; let it keep 20 or more requests in flight (the rate × twice the objective of 50.0 ms, and at least the size)"
            ), "\(reason)")
    }
}
