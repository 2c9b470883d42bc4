import Foundation
import PoolSizeStats
import PoolSizeModel

/// Turns one configuration's trials and the low-load W/C into a queue count.
package enum Recommender {
    /// Formula and knee disagreeing by more than this share of the formula gets an explanation.
    package static let disagreementThreshold = 0.2

    /// - Parameters:
    ///   - tolerance: the knee is the smallest size within this share of peak throughput.
    ///   - targetUtilization: U. The formula scales with it; on the measured curve its counterpart
    ///     is the smallest size reaching U × (1 − tolerance) of the peak, the point where the pool
    ///     keeps the CPU U busy.
    package static func recommend(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double = 0.05, specWaitCPURatio: Double? = nil
    ) -> Recommendation? {
        let records = records.valid
        let bySize = Dictionary(grouping: records, by: \.poolSize)
        let points = bySize.map { CurvePoint(size: $0.key, samples: $0.value.map(\.throughputPerSecond)) }
        let measuredTolerance = 1 - targetUtilization * (1 - tolerance)
        guard let knee = Knee.find(points, tolerance: measuredTolerance), let largest = bySize.keys.max() else {
            return nil
        }

        let exact = SizingFormula.queueCount(
            cores: Double(cores), targetUtilization: targetUtilization, waitCPURatio: lowLoad.waitCPURatio)
        let formulaCount = max(1, Int(saturating: exact.rounded()))
        let rising = knee.size == largest && bySize.count > 1
        let recommended = rising ? max(formulaCount, largest) : knee.size

        let ci = lowLoad.ratio?.confidenceInterval95
        // N is linear in W/C, so its standard error is cores × U × SE(W/C).
        let formulaError = Double(cores) * targetUtilization * (lowLoad.ratio?.standardError ?? 0)
        var recommendation = Recommendation(
            workload: workload, cores: cores, waitCPURatio: lowLoad.waitCPURatio,
            waitCPURatioLower: ci?.lower, waitCPURatioUpper: ci?.upper, specWaitCPURatio: specWaitCPURatio,
            cpuMicrosecondsPerTask: lowLoad.cpuMicrosecondsPerTask,
            waitMicrosecondsPerTask: lowLoad.waitMicrosecondsPerTask,
            targetUtilization: targetUtilization, formulaQueueCountExact: exact,
            formulaQueueCountStandardError: formulaError, formulaQueueCount: formulaCount,
            kneePoolSize: knee.size, kneeThroughputPerSecond: knee.throughput,
            peakPoolSize: knee.peakSize, peakThroughputPerSecond: knee.peakThroughput,
            tolerance: tolerance, recommendedQueueCount: recommended, sizing: rising ? .formula : .knee, reason: "")
        if let first = records.first {
            recommendation.pool = first.pool
            recommendation.qos = first.qos
            recommendation.primitive = first.primitive
        }
        recommendation.maxConcurrencyReached = records.map(\.peakConcurrency).max() ?? 0
        if lowLoad.cpuMicrosecondsPerTask > 0 {
            recommendation.queueingModelKnee = ClosedNetwork.knee(
                servers: cores, serviceTime: lowLoad.cpuMicrosecondsPerTask,
                thinkTime: lowLoad.waitMicrosecondsPerTask, tolerance: measuredTolerance)
        }
        recommendation.integrity = records.integrityVerdict
        do {
            recommendation.usl = try USLFit.fit(
                concurrency: records.map { Double($0.poolSize) }, throughput: records.map(\.throughputPerSecond)
            )
            .validated(maxConcurrency: Double(largest))
        } catch {
            recommendation.uslRefusal = error.description
        }
        recommendation.reason = explain(
            recommendation, records: records, bySize: bySize, largest: largest, rising: rising)
        if !rising, knee.peakSize == largest, records.risesAtLargestSize(tolerance: tolerance) {
            recommendation.reason +=
                " Throughput was still rising at the largest size measured (\(largest)), so the peak, and with it the knee, may lie further out: measure larger sizes to be sure."
        }
        if let usl = recommendation.usl, let peak = usl.peakConcurrency {
            recommendation.reason +=
                " The USL fit (σ \(UnitFormat.significant(usl.sigma)), κ \(String(format: "%.2e", usl.kappa)), R² \(String(format: "%.3f", usl.rSquared))) puts peak throughput at N* = \(UnitFormat.significant(peak))."
        }
        return recommendation
    }

    /// Recommends each combination separately and names the best: the one with the highest peak
    /// throughput (fewer recommended queues break ties). Combinations are compared at their peaks,
    /// not at their knees, which sit at different sizes.
    /// Under an open `load` each combination is sized by `SLOSizer` at the highest rate offered,
    /// and the best is the one meeting the objective with the fewest queues.
    package static func recommendAll(
        workload: String, records: [TrialRecord], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double = 0.05, specWaitCPURatio: Double? = nil, load: Load = .closed
    ) -> RecommendationSet? {
        // Failed tasks never become a recommendation (`withheldRecommendation` says why).
        guard records.withheldRecommendation == nil else { return nil }
        // Trials whose figures the machine cannot produce never decide a recommendation; an
        // adaptive pool chooses its own size, so its trials are summarised (`AdaptiveSummary`),
        // not sized.
        let byCombination = Dictionary(grouping: records.valid.filter { $0.pool != .adaptive }, by: \.combination)
        if case let .open(arrival) = load {
            return recommendOpenLoop(
                workload: workload, byCombination: byCombination, lowLoad: lowLoad, cores: cores,
                targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio,
                arrival: arrival)
        }
        let all = byCombination.keys.sorted().compactMap { combination in
            recommend(
                workload: workload, records: byCombination[combination]!, lowLoad: lowLoad, cores: cores,
                targetUtilization: targetUtilization, tolerance: tolerance, specWaitCPURatio: specWaitCPURatio)
        }
        guard
            let best = all.max(by: { a, b in
                a.peakThroughputPerSecond != b.peakThroughputPerSecond
                    ? a.peakThroughputPerSecond < b.peakThroughputPerSecond
                    : a.recommendedQueueCount > b.recommendedQueueCount
            })
        else { return nil }
        var verdict =
            "Best: \(best.combination), peak \(UnitFormat.significant(best.peakThroughputPerSecond)) tasks/s, \(best.recommendedQueueCount) queues."
        let others = all.filter { $0.combination != best.combination }
            .sorted { $0.peakThroughputPerSecond > $1.peakThroughputPerSecond }
            .map { r in
                "\(r.combination) \(String(format: "%.1f", (1 - r.peakThroughputPerSecond / best.peakThroughputPerSecond) * 100))% lower peak, \(r.recommendedQueueCount) queues"
            }
        if !others.isEmpty { verdict += " Others: " + others.joined(separator: "; ") + "." }
        return RecommendationSet(best: best, combinations: all, verdict: verdict)
    }

    static func recommendOpenLoop(
        workload: String, byCombination: [Combination: [TrialRecord]], lowLoad: LowLoadEstimate, cores: Int,
        targetUtilization: Double, tolerance: Double, specWaitCPURatio: Double?, arrival: ArrivalPlan
    ) -> RecommendationSet? {
        let top = arrival.topRate
        let all = byCombination.keys.sorted().compactMap { combination -> Recommendation? in
            let records = byCombination[combination]!
            // The throughput figures (knee, formula, USL) of the trials at the rate sized for.
            guard
                let base = recommend(
                    workload: workload, records: records.filter { $0.arrivalRate == top }, lowLoad: lowLoad,
                    cores: cores, targetUtilization: targetUtilization, tolerance: tolerance,
                    specWaitCPURatio: specWaitCPURatio)
            else { return nil }
            return SLOSizer.recommend(base: base, records: records, lowLoad: lowLoad, arrival: arrival)
        }
        guard
            let best = all.min(by: { a, b in
                if (a.latency?.met ?? false) != (b.latency?.met ?? false) { return a.latency?.met ?? false }
                if a.recommendedQueueCount != b.recommendedQueueCount {
                    return a.recommendedQueueCount < b.recommendedQueueCount
                }
                return (a.latency?.measuredMicroseconds ?? .infinity) < (b.latency?.measuredMicroseconds ?? .infinity)
            })
        else { return nil }
        let goal =
            arrival.latencySLOMicroseconds.map { "p\(UnitFormat.number(arrival.sloPercentile)) ≤ \(SLOSizer.time($0))" }
            ?? "keeping up"
        var verdict =
            "Best: \(best.combination), \(best.latency?.met == true ? "" : "nothing met \(goal); largest measured ")\(best.recommendedQueueCount) queues at \(UnitFormat.significant(top.perSecond))/s (\(goal))."
        let others = all.filter { $0.combination != best.combination }.map { r in
            "\(r.combination) \(r.latency?.met == true ? "\(r.recommendedQueueCount) queues" : "none met it")"
        }
        if !others.isEmpty { verdict += " Others: " + others.joined(separator: "; ") + "." }
        return RecommendationSet(best: best, combinations: all, verdict: verdict)
    }

    static func explain(
        _ r: Recommendation, records: [TrialRecord], bySize: [Int: [TrialRecord]], largest: Int, rising: Bool
    ) -> String {
        let formulaText =
            "the formula gives \(UnitFormat.significant(r.formulaQueueCountExact)) (\(r.cores) cores × U \(UnitFormat.significant(r.targetUtilization)) × (1 + W/C \(UnitFormat.significant(r.waitCPURatio))))"
        if rising {
            return
                "Throughput was still rising at the largest size measured (\(largest)), so there is no knee yet; \(formulaText) and the recommendation is \(r.recommendedQueueCount). Measure larger sizes (--sizes 1...\(max(2 * largest, r.formulaQueueCount * 2))) to locate the knee."
        }
        // Below U = 1 the knee is where the curve reaches U × (1 − tolerance) of its peak.
        let reach =
            r.targetUtilization < 1
            ? "reach \(UnitFormat.percent(r.targetUtilization * (1 - r.tolerance))) of"
            : "reach within \(UnitFormat.percent(r.tolerance)) of"
        let kneeText =
            "\(r.kneePoolSize) queues \(reach) the peak \(UnitFormat.significant(r.peakThroughputPerSecond)) tasks/s"
        let gap = (Double(r.kneePoolSize) - r.formulaQueueCountExact) / r.formulaQueueCountExact
        if abs(gap) <= disagreementThreshold {
            return
                "Measured and predicted agree: \(kneeText), and \(formulaText), \(UnitFormat.percent(abs(gap))) apart."
        }
        let sizes = bySize.keys.sorted()
        let nearFormula = sizes.filter {
            Double($0) >= 0.8 * r.formulaQueueCountExact && Double($0) <= 1.2 * r.formulaQueueCountExact
        }
        if nearFormula.isEmpty, let below = sizes.last(where: { Double($0) < r.formulaQueueCountExact }),
            let above = sizes.first(where: { Double($0) > r.formulaQueueCountExact })
        {
            return
                "The sizes measured are too coarse to test the formula: \(kneeText), but nothing was measured between \(below) and \(above), where \(formulaText); measure that range (--sizes \(below)...\(above):\(max(1, (above - below) / 8))) to find the knee."
        }
        let atKnee = bySize[r.kneePoolSize] ?? []
        let mean = { (values: [Double]) in values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let kneeUtilization = mean(atKnee.map(\.utilization))
        let kneeCPU = mean(atKnee.map(\.cpuMicrosecondsPerTask))
        let maxReached = records.map(\.peakConcurrency).max() ?? 0
        if gap < 0 {
            if maxReached < Int(0.9 * Double(largest)) && maxReached <= r.kneePoolSize {
                return
                    "The formula over-predicts: \(kneeText), but the pool never ran more than \(maxReached) tasks at once, so larger sizes add nothing; \(formulaText)."
            }
            if kneeUtilization < 0.85 * r.targetUtilization {
                return
                    "The formula over-predicts: \(kneeText) while CPU utilization is only \(UnitFormat.significant(kneeUtilization * 100))%, so something other than CPU (a lock or other serialization) caps throughput; \(formulaText)."
            }
            return
                "The formula over-predicts: \(kneeText), where the CPU is already \(UnitFormat.significant(kneeUtilization * 100))% busy; each task costs \(UnitFormat.significant(kneeCPU)) µs of CPU under load against \(UnitFormat.significant(r.cpuMicrosecondsPerTask)) µs alone, and the machine's other work and scheduling overhead take the rest; \(formulaText)."
        }
        if kneeUtilization > 1.05 {
            return
                "The formula under-predicts: \(kneeText), using \(UnitFormat.significant(kneeUtilization * 100))% of \(r.cores) cores, so more CPU is available than the core count assumed; \(formulaText)."
        }
        if let model = r.queueingModelKnee, model > r.formulaQueueCount {
            return
                "The formula under-predicts: \(kneeText); the formula assumes CPU bursts never collide, but tasks that arrive at a busy CPU wait, so more queues are needed to keep it busy; \(formulaText), and a queueing model with random task times (M/M/\(r.cores)//N) puts the knee at \(model)."
        }
        return
            "The formula under-predicts: \(kneeText); under load tasks wait longer than the \(UnitFormat.significant(r.waitMicrosecondsPerTask)) µs measured alone, so more queues are needed to keep the CPU busy; \(formulaText)."
    }
}
