import PoolSizeModel

/// What a rule of thumb's size gave in a sweep, against the recommended size: its throughput
/// and p99 latency, and the share of the recommendation's throughput it reached.
package struct RuleOfThumbResult: Equatable, Sendable {
    /// The rule.
    package var rule: RuleOfThumb
    /// The size it gives in the sweep (on its cores, or the server's limit).
    package var size: Int
    /// The size's mean throughput; nil when the sweep has no valid trial at it.
    package var throughputPerSecond: Double?
    /// The size's p99 latency, µs; nil with the throughput.
    package var latencyP99Microseconds: Double?
    /// The size compared against: the recommended one, or the highest-throughput size measured
    /// when the recommended one was not (a recommendation from the formula past the sizes).
    package var recommendedSize: Int
    /// Its mean throughput.
    package var recommendedThroughputPerSecond: Double
    /// Whether `recommendedSize` is the recommendation (else the best size measured).
    package var againstRecommendation = true
    /// Whether a size below and a size above the rule's were measured (validly): a rule's
    /// size that is the recommendation is confirmed only with a neighbour on each side.
    package var measuredBelow = true, measuredAbove = true
    /// For a rule's size outside the measured sizes (an adaptive search goes only where the
    /// curve asks): the measured size nearest to it and its mean throughput.
    package var nearestSize: Int?, nearestThroughputPerSecond: Double?
    /// For a rule's size below every measured one, a task's time alone (the low-load C + W, µs):
    /// `size` tasks at a time, none faster than alone, finish at most size / that a second
    /// (Little's law).
    package var aloneMicroseconds: Double?

    /// Whether the rule's size had trials (valid or not): false for one outside the sizes an
    /// adaptive search measured, which is said from the nearest measured size.
    package var wasMeasured: Bool { throughputPerSecond != nil || nearestSize == nil }

    /// Throughput against the recommendation's, as a signed share (−0.41: 41% less); nil when
    /// either is unknown.
    package var change: Double? {
        guard let throughputPerSecond, recommendedThroughputPerSecond > 0 else { return nil }
        return throughputPerSecond / recommendedThroughputPerSecond - 1
    }

    /// Each rule of `rules` at its size, measured in `points` (one combination's summaries),
    /// against `recommended`; empty when the recommended size has no summary. `attempted` holds
    /// the sizes that had trials, valid or not: a rule's size among them had no valid trial, one
    /// outside them was not measured. `aloneMicroseconds`, a task's time alone, bounds what a
    /// rule's size below every measured one can give.
    package static func compare(
        _ points: [ConfigurationSummary], recommended: Int, rules: RuleSet, attempted: Set<Int> = [],
        aloneMicroseconds: Double? = nil
    ) -> [RuleOfThumbResult] {
        let measured = points.filter { $0.throughput.mean.isFinite }.sorted { $0.poolSize < $1.poolSize }
        let exact = measured.first { $0.poolSize == recommended }
        guard let best = exact ?? measured.max(by: { $0.throughput.mean < $1.throughput.mean }) else { return [] }
        return rules.sized.map { rule, size in
            let point = points.first { $0.poolSize == size && $0.throughput.mean.isFinite }
            var result = RuleOfThumbResult(
                rule: rule, size: size, throughputPerSecond: point?.throughput.mean,
                latencyP99Microseconds: point?.latencyP99Microseconds, recommendedSize: best.poolSize,
                recommendedThroughputPerSecond: best.throughput.mean, againstRecommendation: exact != nil)
            let below = measured.contains { $0.poolSize < size }
            result.measuredBelow = size == 1 || below
            result.measuredAbove = measured.contains { $0.poolSize > size }
            if point == nil, !attempted.contains(size), !below || !result.measuredAbove {
                let nearest = below ? measured.last : measured.first
                result.nearestSize = nearest?.poolSize
                result.nearestThroughputPerSecond = nearest?.throughput.mean
                if !below, let alone = aloneMicroseconds, alone > 0, alone.isFinite {
                    result.aloneMicroseconds = alone
                }
            }
            return result
        }
    }

    /// `HikariCP (cores × 2) + 1 = 5: 1 641/s, −2% of the recommended 9's throughput, p99 91.4 ms`,
    /// or that it was not measured.
    package var sentence: String {
        let head = "\(rule.rawValue) = \(size)"
        let reference =
            againstRecommendation ? "the recommended \(recommendedSize)" : "the best measured size \(recommendedSize)"
        func share(_ throughput: Double) -> String {
            let change = throughput / recommendedThroughputPerSecond - 1
            return "\(change >= 0 ? "+" : "−")\(UnitFormat.percent(abs(change))) of \(reference)'s throughput"
        }
        if throughputPerSecond == nil, let nearestSize, let nearest = nearestThroughputPerSecond,
            recommendedThroughputPerSecond > 0
        {
            if let alone = aloneMicroseconds {
                let bound = Double(size) * 1e6 / alone
                return
                    "\(head): not measured; at most about \(UnitFormat.number(bound))/s, \(share(bound)): \(size) at a time, each taking about the \(UnitFormat.duration(microseconds: alone)) one takes alone or longer"
            }
            let above = nearestSize < size
            let side = above ? "largest" : "smallest"
            let rate = "\(UnitFormat.number(nearest))/s"
            if nearestSize == recommendedSize {
                return "\(head): not measured; the \(side) size measured is \(reference), \(rate)"
            }
            let said =
                "\(head): not measured; the \(side) size measured, \(nearestSize), gave \(rate), \(share(nearest))"
            return above ? said : "\(said), and on a rising curve a smaller pool gives less"
        }
        guard let throughputPerSecond, change != nil else { return "\(head): no valid trial at this size" }
        if size == recommendedSize {
            let verdict = againstRecommendation ? "the recommended size" : "the best size measured"
            let missing = [measuredBelow ? nil : "below", measuredAbove ? nil : "above"].compactMap { $0 }
            guard missing.isEmpty else {
                return
                    "\(head): \(verdict), but no size \(missing.joined(separator: " or ")) it was measured, so the curve does not show it is the knee"
            }
            return "\(head): \(verdict)"
        }
        let p99 =
            latencyP99Microseconds.flatMap { $0 > 0 ? ", p99 \(UnitFormat.duration(microseconds: $0))" : nil } ?? ""
        return "\(head): \(UnitFormat.number(throughputPerSecond))/s, \(share(throughputPerSecond))\(p99)"
    }
}
