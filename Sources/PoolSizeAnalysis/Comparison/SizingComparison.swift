import PoolSizeModel

/// What a run concluded for one combination: the answer `compare` puts first.
package struct Sizing: Equatable, Sendable, Codable {
    package var recommendedQueueCount: Int
    package var kneePoolSize: Int
    package var peakPoolSize: Int
    package var peakThroughputPerSecond: Double
    package var formulaQueueCountExact: Double
    /// The sizes the run measured, to tell how far a knee can move by one grid step.
    package var sizes: [Int]

    package init(
        recommendedQueueCount: Int, kneePoolSize: Int, peakPoolSize: Int, peakThroughputPerSecond: Double,
        formulaQueueCountExact: Double, sizes: [Int]
    ) {
        self.recommendedQueueCount = recommendedQueueCount
        self.kneePoolSize = kneePoolSize
        self.peakPoolSize = peakPoolSize
        self.peakThroughputPerSecond = peakThroughputPerSecond
        self.formulaQueueCountExact = formulaQueueCountExact
        self.sizes = sizes
    }

    /// From a recommendation and the sizes measured; nil when the recommendation carries no
    /// throughput curve (an open loop whose highest rate's curve had no knee).
    package init?(_ r: Recommendation, sizes: [Int]) {
        guard let curve = r.curve else { return nil }
        self.init(
            recommendedQueueCount: r.recommendedQueueCount, kneePoolSize: curve.kneeQueueCount,
            peakPoolSize: curve.peakQueueCount,
            peakThroughputPerSecond: curve.peakThroughputPerSecond, formulaQueueCountExact: r.formulaQueueCountExact,
            sizes: sizes.sorted())
    }

    /// The distance from `size` to the nearest other measured size: how far the measured knee
    /// can move by noise alone.
    package func step(at size: Int) -> Int {
        let others = sizes.filter { $0 != size }.map { abs($0 - size) }
        return others.min() ?? 1
    }
}

/// Both runs' answers for one combination, and whether the recommendation changed beyond what
/// the grid and the threshold allow.
package struct SizingComparison: Equatable, Sendable, Codable {
    package var combination: Combination
    package var base: Sizing
    package var current: Sizing
    /// (current − base) / base of the recommended count.
    package var recommendationChange: Double
    /// (current − base) / base of the peak throughput.
    package var peakThroughputChange: Double
    /// The change counts: beyond `recommendationThreshold` and beyond one grid step of either run.
    package var changed: Bool

    /// A recommendation that moves by more than this share (and more than a grid step) is a
    /// finding that fails the comparison.
    package static let recommendationThreshold = 0.10

    package init(combination: Combination, base: Sizing, current: Sizing) {
        self.combination = combination
        self.base = base
        self.current = current
        let delta = current.recommendedQueueCount - base.recommendedQueueCount
        recommendationChange = Double(delta) / Double(max(1, base.recommendedQueueCount))
        peakThroughputChange =
            base.peakThroughputPerSecond > 0
            ? (current.peakThroughputPerSecond - base.peakThroughputPerSecond) / base.peakThroughputPerSecond : 0
        let spread = max(base.step(at: base.recommendedQueueCount), current.step(at: current.recommendedQueueCount))
        changed = abs(recommendationChange) > Self.recommendationThreshold && abs(delta) > spread
    }

    /// `queue-pool/default/none: recommended 32 → 40 (+25.0%)`.
    package var sentence: String {
        "\(combination): recommended \(base.recommendedQueueCount) → \(current.recommendedQueueCount) (\(RunComparator.signedPercent(recommendationChange)); knee \(base.kneePoolSize) → \(current.kneePoolSize), peak \(UnitFormat.number(base.peakThroughputPerSecond.rounded()))/s → \(UnitFormat.number(current.peakThroughputPerSecond.rounded()))/s)"
    }
}
