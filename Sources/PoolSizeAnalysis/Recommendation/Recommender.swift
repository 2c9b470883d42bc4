import Foundation
import PoolSizeStats
import PoolSizeModel

/// Turns one configuration's trials and the low-load W/C into a queue count.
package enum Recommender {
    /// Formula and knee disagreeing by more than this share of the formula gets an explanation.
    package static let disagreementThreshold = 0.2

    /// The closed loop's answer for one combination's trials: the knee of their throughput
    /// curve, or the formula while the curve still rises at the largest size; nil when the
    /// curve has no knee.
    /// - Parameters:
    ///   - tolerance: the knee is the smallest size within this share of peak throughput.
    ///   - targetUtilization: U. The formula scales with it; on the measured curve its counterpart
    ///     is the smallest size reaching U × (1 − tolerance) of the peak, the point where the pool
    ///     keeps the CPU U busy.
    ///   - sizeLimit: the largest size the target allows (a database's connections,
    ///     `SweepTarget.sizeLimit`); a formula past it is answered with the limit.
    package static func recommend(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double = 0.05, specWaitCPURatio: Double? = nil, sizeLimit: Int? = nil
    ) -> Recommendation? {
        closedAnswer(
            workload: workload, records: records, lowLoad: lowLoad, cores: cores,
            targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
            sizeLimit: sizeLimit)?.answer
    }

    /// `recommend`'s answer with the curve it rests on, which the best combination is chosen by.
    static func closedAnswer(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double, specWaitCPURatio: Double?, sizeLimit: Int?
    ) -> (answer: Recommendation, curve: Recommendation.ThroughputCurve)? {
        let records = records.valid
        guard let (curve, knee) = curve(records, targetUtilization: targetUtilization, tolerance: tolerance) else {
            return nil
        }
        let bySize = Dictionary(grouping: records, by: \.poolSize)
        let largest = bySize.keys.max() ?? knee.size
        let formulaCount = formulaQueueCount(cores: cores, targetUtilization: targetUtilization, lowLoad: lowLoad)
        let rising = knee.size == largest && bySize.count > 1
        // A still-rising curve's formula may ask for more than the target allows: never past it.
        let bound = sizeLimit.map { max($0, largest) }
        let risingCount = min(max(formulaCount, largest), bound ?? Int.max)
        guard lowLoad.isMeasured else {
            // No W/C, no formula: the knee, or the largest size while the curve still rises.
            var recommendation = answer(
                workload: workload, records: records, lowLoad: lowLoad, cores: cores,
                targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
                recommendedQueueCount: rising ? largest : knee.size, sizing: .knee(curve))
            recommendation.explanation = .knee(
                .withoutWaitCPU(stillRisingAt: rising ? largest : nil), peakMayLieBeyond: nil, basis: knee.basis)
            return (recommendation, curve)
        }
        var recommendation = answer(
            workload: workload, records: records, lowLoad: lowLoad, cores: cores,
            targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
            recommendedQueueCount: rising ? risingCount : knee.size,
            sizing: rising ? .formula(curve) : .knee(curve))
        let peakMayLieBeyond = !rising && knee.peakSize == largest && records.risesAtLargestSize(tolerance: tolerance)
        recommendation.explanation = .knee(
            explain(
                recommendation, curve: curve, records: records, bySize: bySize, largest: largest, rising: rising,
                bound: bound),
            peakMayLieBeyond: peakMayLieBeyond ? largest : nil, basis: knee.basis)
        return (recommendation, curve)
    }

    /// The throughput curve's evidence of `records` (valid trials at one rate, or a closed loop's)
    /// with the knee it was read from: knee, peak, tolerance, and the USL fit or why it is
    /// refused; nil when the curve has no knee.
    package static func curve(_ records: [TrialRecord], targetUtilization: Double, tolerance: Double)
        -> (Recommendation.ThroughputCurve, Knee)?
    {
        let bySize = Dictionary(grouping: records, by: \.poolSize)
        let points = bySize.map { CurvePoint(size: $0.key, samples: $0.value.map(\.throughputPerSecond)) }
        guard
            let knee = Knee.find(
                points, tolerance: measuredTolerance(targetUtilization, tolerance), gainPerDoubling: tolerance),
            let largest = bySize.keys.max()
        else { return nil }
        var curve = Recommendation.ThroughputCurve(
            kneeQueueCount: knee.size, kneeThroughputPerSecond: knee.throughput, peakQueueCount: knee.peakSize,
            peakThroughputPerSecond: knee.peakThroughput, tolerance: tolerance)
        do {
            curve.usl = try USLFit.fit(
                concurrency: records.map { Double($0.poolSize) }, throughput: records.map(\.throughputPerSecond)
            )
            .validated(maxConcurrency: Double(largest))
        } catch {
            curve.uslRefusal = error.description
        }
        return (curve, knee)
    }

    /// The share below the peak the measured knee allows: U × (1 − tolerance) of the peak.
    static func measuredTolerance(_ targetUtilization: Double, _ tolerance: Double) -> Double {
        1 - targetUtilization * (1 - tolerance)
    }

    /// The formula's count, rounded to a whole queue count (at least 1).
    static func formulaQueueCount(cores: Int, targetUtilization: Double, lowLoad: LowLoadEstimate) -> Int {
        let exact = SizingFormula.queueCount(
            cores: Double(cores), targetUtilization: targetUtilization, waitCPURatio: lowLoad.waitCPURatio)
        return max(1, Int(saturating: exact.rounded()))
    }

    /// An answer with what every answer has, whatever chose its count: the combination of
    /// `records` (valid trials), the low-load W/C and the formula, the queueing model's knee,
    /// the concurrency reached and the integrity; the count and the sizing with its evidence
    /// are the caller's. The reason is written by Output.
    package static func answer(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double, specWaitCPURatio: Double?, recommendedQueueCount: Int,
        sizing: Recommendation.Sizing
    ) -> Recommendation {
        let exact = SizingFormula.queueCount(
            cores: Double(cores), targetUtilization: targetUtilization, waitCPURatio: lowLoad.waitCPURatio)
        let ci = lowLoad.ratio?.confidenceInterval95
        // N is linear in W/C, so its standard error is cores × U × SE(W/C).
        let formulaError = Double(cores) * targetUtilization * (lowLoad.ratio?.standardError ?? 0)
        var recommendation = Recommendation(
            workload: workload, cores: cores, waitCPURatio: lowLoad.waitCPURatio,
            waitCPURatioLower: ci?.lower, waitCPURatioUpper: ci?.upper, specWaitCPURatio: specWaitCPURatio,
            cpuMicrosecondsPerTask: lowLoad.cpuMicrosecondsPerTask,
            waitMicrosecondsPerTask: lowLoad.waitMicrosecondsPerTask,
            targetUtilization: targetUtilization, formulaQueueCountExact: exact,
            formulaQueueCountStandardError: formulaError,
            formulaQueueCount: formulaQueueCount(cores: cores, targetUtilization: targetUtilization, lowLoad: lowLoad),
            recommendedQueueCount: recommendedQueueCount, sizing: sizing, reason: "")
        if let first = records.first {
            recommendation.pool = first.pool
            recommendation.qos = first.qos
            recommendation.primitive = first.primitive
        }
        recommendation.maxConcurrencyReached = records.map(\.peakConcurrency).max() ?? 0
        if lowLoad.cpuMicrosecondsPerTask > 0 {
            recommendation.queueingModelKnee = ClosedNetwork.knee(
                servers: cores, serviceTime: lowLoad.cpuMicrosecondsPerTask,
                thinkTime: lowLoad.waitMicrosecondsPerTask,
                tolerance: measuredTolerance(targetUtilization, tolerance))
        }
        recommendation.integrity = records.integrityVerdict
        return recommendation
    }

    /// The trials a recommendation may rest on, by combination: the valid ones (a trial whose
    /// figures the machine cannot produce never decides), of pools whose size the sweep holds (a
    /// pool that chooses its own size is summarised by `AdaptiveSummary`, not sized).
    static func sizedCombinations(_ records: [TrialRecord]) -> [Combination: [TrialRecord]] {
        Dictionary(grouping: records.valid.filter { $0.pool.sizeOwner.holdsTrialSize }, by: \.combination)
    }

    /// How the closed loop ranks two combinations' answers: the higher peak throughput first
    /// (fewer recommended queues break ties). Combinations are compared at their peaks, not at
    /// their knees, which sit at different sizes.
    static func closedRanksBefore(
        _ a: (answer: Recommendation, curve: Recommendation.ThroughputCurve),
        _ b: (answer: Recommendation, curve: Recommendation.ThroughputCurve)
    ) -> Bool {
        a.curve.peakThroughputPerSecond != b.curve.peakThroughputPerSecond
            ? a.curve.peakThroughputPerSecond > b.curve.peakThroughputPerSecond
            : a.answer.recommendedQueueCount < b.answer.recommendedQueueCount
    }

    /// Why the knee and the formula agree or not; `bound` is the largest size the target allows
    /// (never below the largest measured), nil when only the sweep's maximum bounds it.
    static func explain(
        _ r: Recommendation, curve: Recommendation.ThroughputCurve, records: [TrialRecord],
        bySize: [Int: [TrialRecord]], largest: Int, rising: Bool, bound: Int?
    ) -> KneeExplanation {
        if rising {
            if let bound, r.formulaQueueCount > bound || largest == bound {
                return .stillRisingAtLimit(largest: largest, limit: bound)
            }
            return .stillRising(
                largest: largest, suggestedLargest: min(max(2 * largest, r.formulaQueueCount * 2), bound ?? Int.max))
        }
        let gap = (Double(curve.kneeQueueCount) - r.formulaQueueCountExact) / r.formulaQueueCountExact
        if abs(gap) <= disagreementThreshold { return .agree(gap: abs(gap)) }
        let sizes = bySize.keys.sorted()
        let nearFormula = sizes.filter {
            Double($0) >= 0.8 * r.formulaQueueCountExact && Double($0) <= 1.2 * r.formulaQueueCountExact
        }
        if nearFormula.isEmpty, let below = sizes.last(where: { Double($0) < r.formulaQueueCountExact }),
            let above = sizes.first(where: { Double($0) > r.formulaQueueCountExact })
        {
            return .tooCoarse(below: below, above: above, step: max(1, (above - below) / 8))
        }
        let atKnee = bySize[curve.kneeQueueCount] ?? []
        let mean = { (values: [Double]) in values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let kneeUtilization = mean(atKnee.map(\.utilization))
        // The cores the trial kept busy: the pool's, and a local database's backends serving it
        // (they share the cores, so a pool at 22% beside backends at 75% is CPU-bound).
        let kneeMachine = mean(
            atKnee.map {
                $0.utilization + ($0.watched.database?.backendCPUSeconds ?? 0) / max($0.wallSeconds, 1e-9)
                    / Double(max(r.cores, 1))
            })
        let kneeCPU = mean(atKnee.map(\.cpuMicrosecondsPerTask))
        let maxReached = records.map(\.peakConcurrency).max() ?? 0
        if gap < 0 {
            if maxReached < Int(0.9 * Double(largest)) && maxReached <= curve.kneeQueueCount {
                return .overPredictedConcurrency(maxReached: maxReached)
            }
            if kneeMachine < 0.85 * r.targetUtilization {
                if let lock = interpreterLock(atKnee: atKnee, r) {
                    return .overPredictedInterpreterLock(kneeUtilization: kneeUtilization, lock: lock)
                }
                return .overPredictedSerialization(kneeUtilization: kneeUtilization)
            }
            return .overPredictedCPU(kneeUtilization: kneeMachine, kneeCPUMicroseconds: kneeCPU)
        }
        if kneeUtilization > 1.05 { return .underPredictedCores(kneeUtilization: kneeUtilization) }
        if let model = r.queueingModelKnee, model > r.formulaQueueCount {
            return .underPredictedQueueing(modelKnee: model)
        }
        return .underPredictedWait
    }
}
