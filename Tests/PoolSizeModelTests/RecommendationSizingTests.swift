import Foundation
import Testing
@testable import PoolSizeModel

/// The way a count was chosen is one enum; recommendation.json keeps its flat keys.
@Suite struct RecommendationSizingTests {
    static func recommendation(_ sizing: Recommendation.Sizing) -> Recommendation {
        Recommendation(
            workload: "io", cores: 2, waitCPURatio: 15, waitCPURatioLower: nil, waitCPURatioUpper: nil,
            specWaitCPURatio: nil,
            cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 15000, targetUtilization: 1,
            formulaQueueCountExact: 32,
            formulaQueueCountStandardError: 0, formulaQueueCount: 32, recommendedQueueCount: 20,
            sizing: sizing,
            reason: "r")
    }

    static let curve = Recommendation.ThroughputCurve(
        kneeQueueCount: 32, kneeThroughputPerSecond: 1900, peakQueueCount: 36, peakThroughputPerSecond: 1990,
        tolerance: 0.05, uslRefusal: "too few sizes")

    /// The keys a throughput curve gives recommendation.json.
    static let curveKeys = [
        "knee_pool_size", "knee_throughput_per_s", "peak_pool_size", "peak_throughput_per_s", "tolerance",
    ]

    static func decode(json object: [String: Any]) throws -> Recommendation {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Recommendation.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static let verdict = SLOVerdict(
        poolSize: 20, arrivalRate: 800, trials: 3, stable: true, achievedPerSecond: 799, offeredPerSecond: 801,
        backlogMean: 14,
        p50Microseconds: 17_000, percentileMicroseconds: 38_800, meetsSLO: true, modelPercentileMicroseconds: 36_000)

    static func json(_ value: Recommendation) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try JSONSerialization.jsonObject(with: encoder.encode(value)) as! [String: Any]
    }

    static func decode(_ value: Recommendation) throws -> Recommendation {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Recommendation.self, from: encoder.encode(value))
    }

    @Test func anObjectiveSizingWritesItsEvidenceBesideTheFigures() throws {
        let sizing = LatencySizing(
            arrivalRate: 800, latencySLOMicroseconds: 40_000, sloPercentile: 99, met: true,
            measuredMicroseconds: 38_800,
            queueingModelQueueCount: 19, sizeVerdicts: [Self.verdict])
        let r = Self.recommendation(.arrivals(sizing))
        #expect(r.basis == .latencySLO)
        #expect(r.latency == sizing)
        let object = try Self.json(r)
        #expect(object["basis"] as? String == "latency-slo")
        #expect(object["arrival_rate_per_s"] as? Double == 800)
        #expect(object["latency_slo_us"] as? Double == 40_000)
        #expect(object["slo_met"] as? Bool == true)
        #expect(object["slo_measured_us"] as? Double == 38_800)
        #expect(object["queueing_model_queue_count"] as? Int == 19)
        #expect((object["size_verdicts"] as? [Any])?.count == 1)
        #expect(try Self.decode(r) == r)
        // No throughput curve at the rate: none of its keys, and the file reads back without them.
        #expect(r.curve == nil && r.kneeQueueCount == nil)
        for key in Self.curveKeys + ["usl", "usl_refusal"] { #expect(object[key] == nil, "\(key) without a knee") }
    }

    @Test func anOpenLoopWithAKneeAtItsRateWritesTheCurveBesideItsEvidence() throws {
        var sizing = LatencySizing(
            arrivalRate: 800, latencySLOMicroseconds: 40_000, sloPercentile: 99, met: true,
            measuredMicroseconds: 38_800, queueingModelQueueCount: 19, sizeVerdicts: [Self.verdict])
        sizing.curve = Self.curve
        let r = Self.recommendation(.arrivals(sizing))
        #expect(r.curve == Self.curve && r.kneeQueueCount == 32 && r.peakQueueCount == 36)
        let object = try Self.json(r)
        #expect(object["knee_pool_size"] as? Int == 32)
        #expect(object["peak_throughput_per_s"] as? Double == 1990)
        #expect(object["usl_refusal"] as? String == "too few sizes")
        #expect(object["slo_met"] as? Bool == true)
        #expect(try Self.decode(r) == r)
    }

    @Test func aCurveAnswerRequiresEveryCurveKey() throws {
        let object = try Self.json(Self.recommendation(.knee(Self.curve)))
        for key in Self.curveKeys {
            var missing = object
            missing[key] = nil
            #expect(throws: DecodingError.self, "\(key) missing") { try Self.decode(json: missing) }
        }
        var open = try Self.json(
            Self.recommendation(
                .arrivals(
                    LatencySizing(
                        arrivalRate: 800, latencySLOMicroseconds: nil, sloPercentile: 99, met: true,
                        measuredMicroseconds: 1, queueingModelQueueCount: nil, sizeVerdicts: [Self.verdict]))))
        open["knee_pool_size"] = 4  // a knee without the rest of its curve
        #expect(throws: DecodingError.self) { try Self.decode(json: open) }
    }

    @Test func withoutAnObjectiveTheSizingIsStability() throws {
        let sizing = LatencySizing(
            arrivalRate: 800, latencySLOMicroseconds: nil, sloPercentile: 99, met: false, measuredMicroseconds: nil,
            queueingModelQueueCount: nil, sizeVerdicts: [])
        let r = Self.recommendation(.arrivals(sizing))
        #expect(r.basis == .stability)
        #expect(try Self.decode(r) == r)
    }

    @Test func aThroughputSizingHasNoOpenLoopKeys() throws {
        let r = Self.recommendation(.knee(Self.curve))
        #expect(r.latency == nil)
        #expect(r.curve == Self.curve)
        let object = try Self.json(r)
        #expect(object["basis"] as? String == "knee")
        for key in [
            "arrival_rate_per_s", "latency_slo_us", "slo_percentile", "slo_met", "slo_measured_us", "size_verdicts",
            "rate_sizings",
        ] {
            #expect(object[key] == nil, "\(key) in a closed-loop recommendation")
        }
        #expect(try Self.decode(r) == r)
        #expect(try Self.decode(Self.recommendation(.formula(Self.curve))).sizing == .formula(Self.curve))
        #expect(object["knee_pool_size"] as? Int == 32 && object["tolerance"] as? Double == 0.05)
    }
}
