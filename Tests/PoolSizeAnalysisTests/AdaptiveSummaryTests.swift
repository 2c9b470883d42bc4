import PoolSizeAnalysis
import PoolSizeModel
import Testing

/// What an adaptive pool's trials come to, on hand-written steps.
@Suite struct AdaptiveSummaryTests {
    /// 2 queues until 0.1 s, 32 until 4 s, a probe at 29 until 4.4 s, 32 to the end at 8 s.
    static let steps = [
        SizeStep(seconds: 0.1, size: 32, throughputPerSecond: 125),
        SizeStep(seconds: 4.0, size: 29, throughputPerSecond: 2000),
        SizeStep(seconds: 4.4, size: 32, throughputPerSecond: 1810),
        SizeStep(seconds: 8.0, size: 32, throughputPerSecond: 2000),
    ]

    static func record(
        _ throughput: Double, pool: PoolKind = .adaptive, size: Int = 64, rep: Int, steps: [SizeStep] = steps
    ) -> TrialRecord {
        var record = TrialRecord(
            runID: "r", workload: "io", pool: pool, qos: .default, primitive: .none, poolSize: size, repetition: rep,
            tasks: throughput, wallSeconds: 1, throughputPerSecond: throughput, cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: 0.9, peakConcurrency: 32, threads: 32,
            effectiveNice: 0, integrity: .notApplicable)
        record.sizeSteps = steps
        return record
    }

    /// Over the second half (4–8 s) it held 32 for 3.6 s and 29 for 0.4 s; the probe down and its
    /// revert are one turn (the first move, up, is none).
    @Test func settledSizeAndTurns() {
        #expect(AdaptiveSummary.settledSize(Self.steps) == 32)
        #expect(AdaptiveSummary.directionChanges(Self.steps) == 1)
        #expect(AdaptiveSummary.settledSize([]) == nil)
        #expect(AdaptiveSummary.settledSize([SizeStep(seconds: 0.1, size: 5, throughputPerSecond: 1)]) == 5)
        // 8 until 6 s, then 12: of the second half (5–10 s) 8 held 1 s, 12 held 4 s.
        let late = [
            SizeStep(seconds: 0.1, size: 8, throughputPerSecond: 1),
            SizeStep(seconds: 6, size: 12, throughputPerSecond: 1),
            SizeStep(seconds: 10, size: 12, throughputPerSecond: 1),
        ]
        #expect(AdaptiveSummary.settledSize(late) == 12)
    }

    /// Three trials at a maximum of 64 against the fixed queue pool's knee of 32 at 2000/s: the
    /// median trial's steps are kept, the ratio is the mean over the knee's throughput, and fixed
    /// pools of another tier are not the reference.
    @Test func comparesWithTheFixedKneeOfTheSameTier() {
        let records = [Self.record(1900, rep: 1), Self.record(1960, rep: 2), Self.record(2020, rep: 3, steps: [])]
        var knee = Recommendation(
            workload: "io", cores: 2, waitCPURatio: 15, waitCPURatioLower: nil, waitCPURatioUpper: nil,
            specWaitCPURatio: nil,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000,
            targetUtilization: 1, formulaQueueCountExact: 32, formulaQueueCountStandardError: 0, formulaQueueCount: 32,
            recommendedQueueCount: 32,
            sizing: .knee(
                .init(
                    kneeQueueCount: 32, kneeThroughputPerSecond: 2000, peakQueueCount: 48,
                    peakThroughputPerSecond: 2010, tolerance: 0.05)), reason: "")
        var other = knee
        other.qos = .utility
        other.sizing = .knee(
            .init(
                kneeQueueCount: 40, kneeThroughputPerSecond: 2000, peakQueueCount: 48, peakThroughputPerSecond: 5000,
                tolerance: 0.05))
        let summaries = AdaptiveSummary.summarize(records, recommendations: [knee, other])
        #expect(summaries.count == 1)
        let s = summaries[0]
        #expect(s.maximum == 64 && s.trials == 3 && s.settledSize == 32 && s.directionChanges == 1)
        #expect(s.throughput.mean == 1960)
        #expect(s.reference?.kneeSize == 32 && s.reference?.kneeThroughputPerSecond == 2000)
        #expect(s.ratioToKnee == 0.98)
        #expect(s.steps == Self.steps)
        #expect(s.seconds == 8)
        knee.pool = .adaptive
        #expect(AdaptiveSummary.summarize(records, recommendations: [knee]).first?.reference == nil)
        #expect(AdaptiveSummary.summarize([Self.record(2000, pool: .queuePool, rep: 1)], recommendations: []).isEmpty)
    }
}
