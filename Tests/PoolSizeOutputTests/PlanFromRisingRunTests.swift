import Foundation
import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeOutput
import Testing

/// `plan --from` a run whose throughput still rose at its largest size: the sweep answered with
/// the formula (basis `formula`) and found no knee. Before, the plan read the curve's figure, the
/// largest size, as a measured knee: the issue's server run (2 cores, C 1 ms, W 4 ms, sizes up to
/// 5, formula 10) gave "measured knee 5 … knee-adjusted threads 4" and blamed a lock, and the
/// server fixture "knee-adjusted 26".
@Suite struct PlanFromRisingRunTests {
    /// The issue's run, as its files record it: W/C 4 on 2 cores, so the formula is
    /// 2 × 1 × (1 + 4) = 10 and the sweep recommended 10; sizes 2, 3, 4, 5, throughput still rising
    /// at 5.
    static func issueRun() throws -> ScratchRunDirectory {
        let dir = try ScratchRunDirectory()
        try dir.write(
            "lowload.json",
            JSONExport.serialize(
                LowLoadEstimate(
                    tasks: 100, seconds: 0.5, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 4000, ratio: nil)))
        let recommendation = Recommendation(
            workload: "server", cores: 2, waitCPURatio: 4, waitCPURatioLower: nil, waitCPURatioUpper: nil,
            specWaitCPURatio: nil, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 4000, targetUtilization: 1,
            formulaQueueCountExact: 10, formulaQueueCountStandardError: 0.1, formulaQueueCount: 10,
            recommendedQueueCount: 10,
            sizing: .formula(
                .init(
                    kneeQueueCount: 5, kneeThroughputPerSecond: 900, peakQueueCount: 5, peakThroughputPerSecond: 900,
                    tolerance: 0.05)), reason: "")
        try dir.write(
            "recommendation.json",
            JSONExport.serialize(RecommendationSet(best: recommendation, combinations: [recommendation], verdict: "")))
        try dir.write(
            "machine.json",
            ReportFixtures.machineJSON(
                runID: "r-server", cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil), cpuModel: "Test CPU"))
        return dir
    }

    static func plan(_ path: String, rate: Double) throws -> CapacityPlan {
        let source = try PlanSourceReader.load(path)
        let inputs = PlanInputs(
            waitSeconds: source.waitSeconds, cpuSeconds: source.cpuSeconds, targetRatePerSecond: rate,
            coresPerHost: try #require(source.run.cores), measuredRun: source.run)
        return PlanProse.worded(try CapacityPlanner.plan(inputs), input: inputs)
    }

    @Test func theIssuesRunHasNoKneeToAdjustBy() throws {
        let dir = try Self.issueRun()
        let source = try PlanSourceReader.load(dir.path)
        #expect(source.run.kneePoolSize == nil)
        #expect(source.run.stillRisingAt == 5)
        #expect(source.run.recommendedQueueCount == 10)
        // 2 cores × U 0.8 × (1 + 4) = 8 threads; 1000/s ÷ (2 × 0.8 ÷ 1 ms = 1600/s) → 1 host.
        let plan = try Self.plan(dir.path, rate: 1000)
        #expect(plan.threadsPerHost == 8)
        #expect(plan.hosts == 1)
        let measured = try #require(plan.measured)
        #expect(measured.kneeToFormula == nil)
        #expect(measured.kneeAdjustedThreadsPerHost == nil)
        #expect(!plan.warnings.contains { $0.contains("knee") })
        let text = PlanReport.render(plan)
        #expect(!text.contains("knee-adjusted"))
        #expect(
            text.split(separator: "\n").filter { $0.hasPrefix("measured knee") } == [
                "measured knee        none yet  throughput still rose at 5, the largest size the run measured on 2 cores: no knee to adjust the threads by; the run recommended 10 (its formula: 10); sweep larger sizes to find one"
            ])
    }

    /// Tests/Fixtures/run-server: W/C 8.13 on 2 cores, sizes up to 32, throughput still rising
    /// there; the sweep recommended 32 beside its formula's 18.3. Before: knee 32 ÷ 18.3 = 1.75,
    /// "knee-adjusted threads 26" = ceil(14.6 × 1.75), and "the curve bent later than the formula".
    @Test func theServerFixtureHasNoKneeEither() throws {
        let path = ReportFixtures.fixture("run-server").path
        let source = try PlanSourceReader.load(path)
        #expect(source.run.kneePoolSize == nil)
        #expect(source.run.stillRisingAt == 32)
        #expect(source.run.recommendedQueueCount == 32)
        // 2 × 0.8 × (1 + 8.125) = 14.6 → 15 threads; 1000/s ÷ (1.6 ÷ 2.259 ms = 708/s) → 2 hosts.
        let plan = try Self.plan(path, rate: 1000)
        #expect(plan.threadsPerHost == 15)
        #expect(plan.hosts == 2)
        #expect(plan.measured?.kneeAdjustedThreadsPerHost == nil)
        #expect(!plan.warnings.contains { $0.contains("knee") })
        #expect(
            PlanReport.render(plan).split(separator: "\n").filter { $0.hasPrefix("measured knee") } == [
                "measured knee        none yet  throughput still rose at 32, the largest size the run measured on 2 cores: no knee to adjust the threads by; the run recommended 32 (its formula: 18.3); sweep larger sizes to find one"
            ])
    }

    /// A knee the sweep measured below its formula still adjusts the threads and says why: the
    /// same run, answered at a knee of 5 (5 ÷ 10 = 0.5, 8 × 0.5 = 4 threads).
    @Test func aMeasuredKneeBelowTheFormulaStillAdjusts() throws {
        let dir = try Self.issueRun()
        let url = dir.url.appendingPathComponent("recommendation.json")
        try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
            of: #""basis" : "formula""#, with: #""basis" : "knee""#
        ).replacingOccurrences(of: #""recommended_queue_count" : 10"#, with: #""recommended_queue_count" : 5"#)
            .write(to: url, atomically: true, encoding: .utf8)
        let source = try PlanSourceReader.load(dir.path)
        #expect(source.run.kneePoolSize == 5)
        #expect(source.run.stillRisingAt == nil)
        let plan = try Self.plan(dir.path, rate: 1000)
        #expect(plan.measured?.kneeToFormula == 0.5)
        #expect(plan.measured?.kneeAdjustedThreadsPerHost == 4)
        #expect(plan.warnings.contains { $0.hasPrefix("The run's measured knee (5) was 0.5× its formula (10)") })
    }
}
