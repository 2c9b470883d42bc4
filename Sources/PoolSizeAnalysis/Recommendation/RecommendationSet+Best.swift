import PoolSizeModel

extension RecommendationSet {
    /// Each combination's answer, in combination order, and the best: the first that no other
    /// `ranksBefore`. The closed and the open loop differ only in how they answer one
    /// combination and rank two answers. Nil when no combination has an answer.
    static func best<Answer>(
        of byCombination: [Combination: [TrialRecord]], recommendation: (Answer) -> Recommendation,
        ranksBefore: (Answer, Answer) -> Bool, answering answer: ([TrialRecord]) -> Answer?
    ) -> RecommendationSet? {
        let all = byCombination.keys.sorted().compactMap { answer(byCombination[$0]!) }
        guard let best = all.min(by: ranksBefore) else { return nil }
        // The verdict is worded by Output (SizingProse), from the combinations.
        return RecommendationSet(best: recommendation(best), combinations: all.map(recommendation), verdict: "")
    }
}
