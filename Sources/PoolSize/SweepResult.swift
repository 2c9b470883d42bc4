import Foundation

/// What a sweep found.
///
/// ```swift
/// let result = try Sweep(.init(name: "resize", sizes: .explicit([1, 2, 4, 8]))) { resize() }.run()
/// let pools = QueuePoolSet(recommendation: try result.best)  // or: try result.queueCount
/// ```
public struct SweepResult: Sendable {
    /// The plan the sweep ran.
    package var plan: SweepPlan
    /// W and C with one worker: the formula's inputs.
    public var lowLoad: LowLoadEstimate
    /// One per measured trial, in the order run.
    public var records: [TrialRecord]
    /// The recommendation per combination and the best one; nil when no size could be
    /// recommended (`best` throws and says why).
    public var recommendation: RecommendationSet?
    /// A chain's answer (`Sweep.Target.chain`): each knob's recommended value; nil for one pool.
    public var recommendedSizes: [String: Int]?
    /// A chain's summary as `poolsize sweep` prints it: every cell, the answer, the layer that
    /// binds there and each layer's rule of thumb; nil for one pool.
    public var chainSummary: String?

    /// A result from its parts (`Sweep.run()` makes it).
    package init(
        plan: SweepPlan, lowLoad: LowLoadEstimate, records: [TrialRecord], recommendation: RecommendationSet?
    ) {
        self.plan = plan
        self.lowLoad = lowLoad
        self.records = records
        self.recommendation = recommendation
    }

    /// The load the answer is for, in words. A closed loop (the default) is a continuous
    /// stream: every queue is kept two tasks deep for the whole trial, so N queues never run
    /// dry. A batch that ends (M tasks submitted, then waited for) is another load: its last
    /// tasks leave queues idle, so its best size can differ; time the batch at each size
    /// instead (docs/guide/library.md shows how). An open loop's tasks arrive at a rate.
    public var loadServed: String { plan.load.served }

    /// Mean, spread and interval per (combination, size), as summary.csv holds them.
    public var summaries: [ConfigurationSummary] { ConfigurationSummary.summarize(records) }

    /// The best combination's recommendation: the answer, with the sentence that explains it.
    /// Throws `PoolSizeError.measurementFailed` saying why when there is none: no trial finished,
    /// too many tasks failed, no knee was found, or the pool sizes itself (an adaptive pool has no
    /// size to recommend). With an open load whose latency
    /// objective no size met, it returns the recommendation all the same: `latency?.met` says so.
    public var best: Recommendation {
        get throws(PoolSizeError) {
            if let best = recommendation?.best { return best }
            throw .measurementFailed("no recommendation: \(noRecommendationCause)")
        }
    }

    /// The queue count to use: the best combination's recommended size (`best`'s
    /// `recommendedQueueCount`). Throws as `best` does when no size could be recommended.
    public var queueCount: Int {
        get throws(PoolSizeError) { try best.recommendedQueueCount }
    }

    /// Why the trials gave no recommendation, in the words `Sweep.run()`'s caller reads.
    private var noRecommendationCause: String {
        if let cause = records.noRecommendationCause { return cause }
        if records.valid.allSatisfy({ !$0.pool.sizeOwner.holdsTrialSize }) {
            let kinds = plan.pools.map(\.rawValue).joined(separator: ", ")
            return "the pool sizes itself (\(kinds)), so no size is recommended; sweep a fixed pool beside it for one"
        }
        return "no knee could be found in the \(records.valid.count) valid trials"
    }
}
