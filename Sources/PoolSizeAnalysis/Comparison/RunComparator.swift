import PoolSizeStats
import PoolSizeModel

/// Decides whether a current run regressed against a base run, configuration by configuration.
///
/// A metric regresses only when both hold: its median moved the wrong way by more than the
/// threshold (practical significance), and the repetitions say the move is not noise
/// (statistical significance). The test is Mann–Whitney U (Mann & Whitney, Ann. Math. Statist.
/// 18(1), 1947) when the repetition counts let it reach p < alpha at all — 3 against 3 never
/// can (`MannWhitney.smallestPValue`) — and otherwise non-overlapping Student-t intervals of the
/// means at 1 − alpha, the conservative rule package-benchmark and hyperfine users apply by eye.
package enum RunComparator {
    package static let alpha = 0.05

    /// Two closed-loop runs: each configuration's throughput and p99, and each combination's
    /// sizing, judged up to the knee and at the recommended size.
    static func compareClosedLoop(base: RunSamples, current: RunSamples, threshold: Double) -> RunComparison {
        let common = Set(base.samples.keys).intersection(current.samples.keys).sorted()
        var rows = common.map { key in
            let (b, c) = (base.samples[key]!, current.samples[key]!)
            let throughput = compareMetric(
                b.throughputPerSecond, c.throughputPerSecond, threshold: threshold, higherIsBetter: true)
            let latency = compareMetric(
                b.latencyP99Microseconds, c.latencyP99Microseconds, threshold: threshold, higherIsBetter: false)
            let verdict = [throughput?.verdict, latency?.verdict].compactMap { $0 }.min() ?? .untested
            return ConfigurationComparison(
                configuration: key, throughput: throughput, latencyP99: latency, verdict: verdict)
        }
        let sizing = base.sizing.keys.filter { current.sizing[$0] != nil }.sorted().map {
            SizingComparison(combination: $0, base: base.sizing[$0]!, current: current.sizing[$0]!)
        }
        // Only the sizes a decision rests on are judged: up to the knee, and the recommended
        // size, in either run. Past the plateau throughput wanders with noise.
        rows = rows.map { row in
            guard let b = base.sizing[row.configuration.combination],
                let c = current.sizing[row.configuration.combination]
            else { return row }
            var judged = row
            let size = row.configuration.poolSize
            judged.judged =
                size <= max(b.kneePoolSize, c.kneePoolSize) || size == b.recommendedQueueCount
                || size == c.recommendedQueueCount
            return judged
        }
        let regressions = rows.filter { $0.judged && $0.verdict == .regression }.count
        let changes = sizing.filter(\.changed).count
        let verdict: ComparisonVerdict =
            regressions > 0 || changes > 0
            ? .regression : rows.contains { $0.judged && $0.verdict == .improvement } ? .improvement : .unchanged
        var comparison = RunComparison(
            baseRunID: base.runID, currentRunID: current.runID,
            workload: base.workloadNames.intersection(current.workloadNames).sorted().joined(separator: ", "),
            cores: base.cores ?? current.cores, threshold: threshold, alpha: alpha, configurations: rows,
            onlyInBase: Set(base.samples.keys).subtracting(current.samples.keys).sorted(),
            onlyInCurrent: Set(current.samples.keys).subtracting(base.samples.keys).sorted(),
            regressions: regressions, verdict: verdict, summary: "", notes: [])
        comparison.sizing = sizing
        comparison.recommendationChanges = changes
        comparison.summary = summary(comparison)
        comparison.notes = notes(comparison)
        return comparison
    }

    /// nil when either side has no finite positive value (a metric the run did not record),
    /// except that throughput (`higherIsBetter`) the base had and the current run lost is a
    /// collapse: a regression of −100%, whatever the repetitions.
    package static func compareMetric(_ base: [Double], _ current: [Double], threshold: Double, higherIsBetter: Bool)
        -> MetricComparison?
    {
        let b = base.filter { $0.isFinite && $0 > 0 }
        let c = current.filter { $0.isFinite && $0 > 0 }
        if higherIsBetter, c.isEmpty, let baseSummary = Summary(b) {
            return MetricComparison(
                baseMedian: baseSummary.median, currentMedian: 0, baseRepetitions: b.count,
                currentRepetitions: current.count,
                relativeChange: -1, test: .collapsed, pValue: nil, significant: true, verdict: .regression)
        }
        guard let baseSummary = Summary(b), let currentSummary = Summary(c) else { return nil }
        let change = (currentSummary.median - baseSummary.median) / baseSummary.median
        let (test, pValue, significant) = significance(b, c, base: baseSummary, current: currentSummary)
        let worse = higherIsBetter ? change < -threshold : change > threshold
        let better = higherIsBetter ? change > threshold : change < -threshold
        let verdict: ComparisonVerdict
        if !worse && !better {
            verdict = .unchanged
        } else if test == .none {
            verdict = .untested
        } else if significant {
            verdict = worse ? .regression : .improvement
        } else {
            verdict = .inconclusive
        }
        return MetricComparison(
            baseMedian: baseSummary.median, currentMedian: currentSummary.median, baseRepetitions: b.count,
            currentRepetitions: c.count, relativeChange: change, test: test, pValue: pValue,
            significant: significant, verdict: verdict)
    }

    static func significance(_ b: [Double], _ c: [Double], base: Summary, current: Summary) -> (
        SignificanceTest, Double?, Bool
    ) {
        if MannWhitney.smallestPValue(b.count, c.count) < alpha, let result = MannWhitney.test(b, c) {
            return (.mannWhitney, result.pValue, result.pValue < alpha)
        }
        guard let x = base.confidenceInterval(level: 1 - alpha), let y = current.confidenceInterval(level: 1 - alpha)
        else {
            return (.none, nil, false)
        }
        return (.confidenceIntervals, nil, x.upper < y.lower || y.upper < x.lower)
    }
}
