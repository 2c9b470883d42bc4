import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// `poolsize export` and `sweep --format json` for open-loop runs.
@Suite struct OpenLoopExportTests {
    typealias Entry = ExportTests.Entry

    static func entries(_ run: RunData, _ direction: GitHubBenchmarkExport.Direction) throws -> [Entry] {
        try JSONDecoder().decode(
            [Entry].self, from: Data(GitHubBenchmarkExport.serialize(RunAnalysis(run), direction: direction).utf8))
    }

    @Test func smallerIsBetterCarriesTheRecommendationAndTheObjectivesPercentile() throws {
        let entries = try Self.entries(OpenLoopFixtures.single, .smaller)
        #expect(
            entries.first
                == Entry(
                    name: "io queue-pool/default/none recommended queues", unit: "queues", value: 20, range: nil,
                    extra: "basis latency-slo; p99 ≤ 40.0 ms at 1000/s met; queueing model 19"))
        #expect(
            entries.contains(
                Entry(
                    name: "io queue-pool/default/none p99 latency at the recommended size", unit: "us", value: 23_300,
                    range: nil,
                    extra: "N = 20 at 1000/s; worst repetition, from intended arrival; objective 40000 us")))
        let perSize = entries.filter { $0.name.hasSuffix(" p99 latency") && $0.name.contains("N=") }
        #expect(
            perSize.map(\.name) == [8, 16, 17, 20, 24].map { "io queue-pool/default/none 1000/s N=\($0) p99 latency" })
        #expect(perSize.map(\.value) == [1_180_000, 1_990_000, 43_000, 23_300, 21_000])
        #expect(perSize[2].extra?.hasSuffix("kept up; missed the objective") == true)
        #expect(Set(entries.map(\.name)).count == entries.count)
        // No closed-loop per-size entries named without a rate.
        #expect(!entries.contains { $0.name.contains(" N=") && !$0.name.contains("/s N=") })
    }

    @Test func aRangeNamesEachRateAndItsRecommendation() throws {
        let smaller = try Self.entries(OpenLoopFixtures.range, .smaller)
        #expect(Set(smaller.map(\.name)).count == smaller.count, "a range's rates never share a name")
        #expect(smaller.filter { $0.name.hasSuffix("/s recommended queues") }.map(\.value) == [17, 24, 32])
        #expect(smaller.filter { $0.name.hasSuffix(" p99 latency") && $0.name.contains("N=") }.count == 12)
        let bigger = try Self.entries(OpenLoopFixtures.range, .bigger)
        #expect(bigger.count == 12)
        #expect(
            bigger.contains(
                Entry(
                    name: "io queue-pool/default/none 1500/s N=17 carried", unit: "tasks/s", value: 1050, range: nil,
                    extra: "offered 1500/s; fell behind; 1 repetition(s)")))
        #expect(!bigger.contains { $0.name.contains("peak throughput") })
    }

    @Test func openMetricsLabelsRateAndSize() throws {
        let text = OpenMetricsExport.serialize(RunAnalysis(OpenLoopFixtures.range))
        #expect(ExportTests.validate(text) == [])
        let labels = "workload=\"io\",host=\"test\",pool=\"queue-pool\",qos=\"default\",primitive=\"none\""
        #expect(
            text.contains(
                "\npoolsize_latency_slo_percentile_seconds{\(labels),rate=\"1000\",size=\"17\",percentile=\"99\"} 0.043\n"
            ))
        #expect(text.contains("\npoolsize_slo_met{\(labels),rate=\"1000\",size=\"17\"} 0\n"))
        #expect(text.contains("\npoolsize_slo_met{\(labels),rate=\"1000\",size=\"24\"} 1\n"))
        #expect(text.contains("\npoolsize_stable{\(labels),rate=\"1500\",size=\"24\"} 0\n"))
        #expect(text.contains("\npoolsize_recommended_queues{\(labels),rate=\"500\"} 17\n"))
        #expect(text.contains("\npoolsize_recommended_queues{\(labels),rate=\"1500\"} 32\n"))
        #expect(text.contains("\npoolsize_latency_slo_seconds{\(labels),percentile=\"99\"} 0.04\n"))
        #expect(text.contains("\npoolsize_throughput_per_second{\(labels),rate=\"1500\",size=\"17\"} 1050\n"))
        #expect(!text.contains("poolsize_knee_queues") && !text.contains("poolsize_formula_queues"))
        // Every series once: a range never gives two samples the same labels.
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").first! }
        #expect(Set(samples).count == samples.count)
    }

    @Test func sweepJSONCarriesTheOpenLoopFields() throws {
        let analysis = RunAnalysis(OpenLoopFixtures.range)
        let json = JSONExport.serialize(SweepOutput(analysis, runDirectory: "results/x", workload: "io", cores: 2))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let arrival = try #require(object["arrival"] as? [String: Any])
        #expect(arrival["rates_per_s"] as? [Double] == [500, 1000, 1500])
        #expect(arrival["latency_slo_us"] as? Double == 40_000)
        #expect(arrival["process"] as? String == "poisson")
        let configurations = try #require(object["configurations"] as? [[String: Any]])
        #expect(configurations.count == 12)
        let row = try #require(
            configurations.first { $0["arrival_rate_per_s"] as? Double == 1000 && $0["pool_size"] as? Int == 17 })
        #expect(row["stable"] as? Bool == true)
        #expect(row["meets_slo"] as? Bool == false)
        #expect(row["slo_percentile_us"] as? Double == 43_000)
        #expect(row["achieved_per_s"] as? Double == 1000)
        #expect((row["model_slo_percentile_us"] as? Double).map { abs($0 - 84_804) < 1 } == true)
        let recommendation = try #require(object["recommendation"] as? [String: Any])
        #expect(recommendation["basis"] as? String == "latency-slo")
        #expect(
            (recommendation["rate_sizings"] as? [[String: Any]])?.compactMap { $0["recommended_queue_count"] as? Int }
                == [17, 24, 32])
    }

    /// A closed loop's JSON gains no open-loop keys.
    @Test func closedLoopJSONIsUnchanged() throws {
        let json = JSONExport.serialize(
            SweepOutput(RunAnalysis(ReportFixtures.single), runDirectory: "results/x", workload: "io", cores: 2))
        for key in ["arrival", "stable", "meets_slo", "arrival_rate_per_s", "backlog_mean"] {
            #expect(!json.contains("\"\(key)\""))
        }
    }
}
