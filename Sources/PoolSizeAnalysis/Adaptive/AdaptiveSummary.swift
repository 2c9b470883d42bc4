import PoolSizeModel
import PoolSizeStats

/// What an adaptive pool (`--pool adaptive`) did in a sweep's trials at one maximum, beside the
/// fixed pools of the same tier and primitive measured in the same run. An adaptive pool sizes
/// itself, so it gets no recommendation: its answer is the size it settled on, and how close its
/// throughput came to the fixed curve's knee. Pure.
package struct AdaptiveSummary: Equatable, Sendable {
    /// The fixed pool it is compared with: the same tier and primitive's recommendation with the
    /// highest peak in the run.
    package struct Reference: Equatable, Sendable {
        /// The fixed pool's combination.
        package var combination: Combination
        /// Its knee.
        package var kneeSize: Int
        /// Mean throughput at the knee, tasks/s.
        package var kneeThroughputPerSecond: Double
    }

    /// Its pool, tier and primitive (a pool whose `sizeOwner` is `.pool`).
    package var combination: Combination
    /// The most queues it could have (the trial's pool size).
    package var maximum: Int
    /// Valid trials at this maximum.
    package var trials: Int
    /// The size it held longest over the second half of its trial (median over the trials).
    package var settledSize: Int
    /// Throughput of the trials' measurement windows.
    package var throughput: Summary
    /// Turns from growing to shrinking or back, per trial (median).
    package var directionChanges: Int
    /// Length of the trial the steps cover, seconds (median).
    package var seconds: Double
    /// The fixed pool it is measured against, when the run has one.
    package var reference: Reference?
    /// The steps of the trial whose throughput is the median: the one a chart shows.
    package var steps: [SizeStep]

    /// Its throughput over the fixed pool's at its knee.
    package var ratioToKnee: Double? {
        guard let reference, reference.kneeThroughputPerSecond > 0 else { return nil }
        return throughput.mean / reference.kneeThroughputPerSecond
    }

    /// One summary per (combination, maximum) of the trials among `records` whose pool sets its
    /// own size, compared with `recommendations` (the fixed pools').
    package static func summarize(_ records: [TrialRecord], recommendations: [Recommendation]) -> [AdaptiveSummary] {
        let adaptive = records.valid.filter { $0.pool.sizeOwner == .pool }
        let groups = Dictionary(grouping: adaptive) { AdaptiveKey(combination: $0.combination, maximum: $0.poolSize) }
        return groups.keys.sorted().compactMap { key in
            let trials = groups[key]!
            guard let throughput = Summary(trials.map(\.throughputPerSecond)) else { return nil }
            let median = trials.sorted { $0.throughputPerSecond < $1.throughputPerSecond }[trials.count / 2]
            let fixed =
                recommendations
                .filter {
                    $0.pool.sizeOwner.holdsTrialSize && $0.qos == key.combination.qos
                        && $0.primitive == key.combination.primitive
                }
                .compactMap { r in r.curve.map { (combination: r.combination, curve: $0) } }
                .max { $0.curve.peakThroughputPerSecond < $1.curve.peakThroughputPerSecond }
            return AdaptiveSummary(
                combination: key.combination, maximum: key.maximum, trials: trials.count,
                settledSize: middle(trials.compactMap { settledSize($0.sizeSteps) }) ?? median.poolSize,
                throughput: throughput, directionChanges: middle(trials.map { directionChanges($0.sizeSteps) }) ?? 0,
                seconds: Double(middle(trials.map { Int(($0.sizeSteps.last?.seconds ?? 0) * 1000) }) ?? 0) / 1000,
                reference: fixed.map {
                    Reference(
                        combination: $0.combination, kneeSize: $0.curve.kneeQueueCount,
                        kneeThroughputPerSecond: $0.curve.kneeThroughputPerSecond)
                },
                steps: median.sizeSteps)
        }
    }

    /// The size held longest over the second half of `steps` (each size from its step to the
    /// next); nil without steps.
    package static func settledSize(_ steps: [SizeStep]) -> Int? {
        guard let end = steps.last?.seconds, steps.count > 1 else { return steps.first?.size }
        let from = end / 2
        var held: [Int: Double] = [:]
        for (step, next) in zip(steps, steps.dropFirst()) where next.seconds > from {
            held[step.size, default: 0] += next.seconds - max(step.seconds, from)
        }
        return held.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? steps.last?.size
    }

    /// Turns from growing to shrinking or back along `steps`.
    package static func directionChanges(_ steps: [SizeStep]) -> Int {
        var changes = 0
        var last = 0
        for (step, next) in zip(steps, steps.dropFirst()) where next.size != step.size {
            let direction = next.size > step.size ? 1 : -1
            if last != 0 && direction != last { changes += 1 }
            last = direction
        }
        return changes
    }

    /// The middle value (the lower of the two middle ones); nil for none.
    static func middle(_ values: [Int]) -> Int? {
        values.isEmpty ? nil : values.sorted()[(values.count - 1) / 2]
    }
}

/// The grouping of adaptive trials: one combination at one maximum.
struct AdaptiveKey: Hashable, Comparable {
    var combination: Combination
    var maximum: Int

    static func < (a: AdaptiveKey, b: AdaptiveKey) -> Bool {
        a.combination != b.combination ? a.combination < b.combination : a.maximum < b.maximum
    }
}
