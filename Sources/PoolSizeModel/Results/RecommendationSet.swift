/// `recommendation.json`: the best combination's recommendation at the top level (so a run with
/// one combination reads as one flat object), and every combination's under `combinations`.
public struct RecommendationSet: Equatable, Sendable, Codable {
    /// The combination with the highest peak throughput.
    public var best: Recommendation
    /// Every combination swept, the best first.
    public var combinations: [Recommendation]
    /// One line naming the best combination and how much worse the others are.
    public var verdict: String

    /// A set from its parts.
    public init(best: Recommendation, combinations: [Recommendation], verdict: String) {
        self.best = best
        self.combinations = combinations
        self.verdict = verdict
    }

    enum ExtraKeys: String, CodingKey { case combinations, verdict }

    /// Reads the best recommendation's keys at the top level, and `combinations` and `verdict`
    /// beside them, as `encode(to:)` writes them.
    public init(from decoder: any Decoder) throws {
        best = try Recommendation(from: decoder)
        let container = try decoder.container(keyedBy: ExtraKeys.self)
        combinations = try container.decode([Recommendation].self, forKey: .combinations)
        verdict = try container.decode(String.self, forKey: .verdict)
    }

    /// Writes the best recommendation's keys at the top level, then `combinations` and `verdict`.
    public func encode(to encoder: any Encoder) throws {
        try best.encode(to: encoder)
        var container = encoder.container(keyedBy: ExtraKeys.self)
        try container.encode(combinations, forKey: .combinations)
        try container.encode(verdict, forKey: .verdict)
    }
}
