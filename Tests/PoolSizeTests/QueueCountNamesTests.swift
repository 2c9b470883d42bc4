import Foundation
import PoolSize
import Testing

/// Issue 31: a recommendation called one kind of number three ways (`recommendedQueueCount`,
/// `kneePoolSize`, `formulaQueueCountExact`). Every size it answers is now a queue count
/// (`kneeQueueCount`, `peakQueueCount`), the file keeps its keys, and the old names still build,
/// deprecated, and read the same figures. Issue 32 moved the knee and the peak into the curve's
/// evidence (`curve`), which the names read.
@Suite struct QueueCountNamesTests {
    static func recommendation() -> Recommendation {
        Recommendation(
            workload: "io", cores: 2, waitCPURatio: 15, waitCPURatioLower: nil, waitCPURatioUpper: nil,
            specWaitCPURatio: nil, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, targetUtilization: 1,
            formulaQueueCountExact: 32, formulaQueueCountStandardError: 0, formulaQueueCount: 32,
            recommendedQueueCount: 30,
            sizing: .knee(
                Recommendation.ThroughputCurve(
                    kneeQueueCount: 30, kneeThroughputPerSecond: 1900, peakQueueCount: 36,
                    peakThroughputPerSecond: 1990, tolerance: 0.05)),
            reason: "r")
    }

    @Test func theFileKeepsItsKeys() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(Self.recommendation())) as? [String: Any])
        #expect(object["knee_pool_size"] as? Int == 30)
        #expect(object["peak_pool_size"] as? Int == 36)
        #expect(object["knee_queue_count"] == nil && object["peak_queue_count"] == nil)
    }

    @Test func theOldNamesForwardToTheNewOnes() {
        let r = Self.recommendation()
        let old = (OldNames.self as any OldNamesReading.Type).read(r)
        #expect(old.knee == 30 && old.peak == 36)
        #expect(r.kneeQueueCount == 30 && r.peakQueueCount == 36)
        #expect(r.curve?.kneeQueueCount == 30 && r.curve?.peakQueueCount == 36)
    }
}

/// Reaches the deprecated names through a requirement that is not deprecated, so the test
/// itself builds without a warning.
protocol OldNamesReading {
    static func read(_ r: Recommendation) -> (knee: Int?, peak: Int?)
}

/// What a user's code written against the old names does.
enum OldNames: OldNamesReading {
    @available(*, deprecated, message: "uses the old names on purpose")
    static func read(_ r: Recommendation) -> (knee: Int?, peak: Int?) { (r.kneePoolSize, r.peakPoolSize) }
}
