extension Recommendation {
    /// How a count was chosen. Each load has its own kind of answer: the closed loop's is on the
    /// throughput curve, the open loop's at an arrival rate, with that answer's evidence.
    public enum Sizing: Equatable, Sendable {
        /// The measured knee of the throughput curve.
        case knee
        /// The formula, because the measured curve had no plateau to find a knee on.
        case formula
        /// The smallest size whose latency percentile met the objective at the rate.
        case latencyObjective(LatencySizing)
        /// The smallest size that kept up with the rate (no latency objective).
        case stability(LatencySizing)

        /// An open-loop sizing: by its objective, or by keeping up when it has none.
        public static func arrivals(_ sizing: LatencySizing) -> Sizing {
            sizing.latencySLOMicroseconds == nil ? .stability(sizing) : .latencyObjective(sizing)
        }

        /// The sizing a file names by `basis`, its evidence read from the same object.
        init(basis: Basis, from decoder: any Decoder) throws {
            switch basis {
            case .knee: self = .knee
            case .formula: self = .formula
            case .latencySLO: self = .latencyObjective(try LatencySizing(from: decoder))
            case .stability: self = .stability(try LatencySizing(from: decoder))
            }
        }
    }

    /// Where the count comes from, as recommendation.json and the console name it.
    package var basis: Basis {
        switch sizing {
        case .knee: return .knee
        case .formula: return .formula
        case .latencyObjective: return .latencySLO
        case .stability: return .stability
        }
    }

    /// The open-loop evidence, when the count was chosen for an arrival rate.
    public var latency: LatencySizing? {
        switch sizing {
        case .knee, .formula: return nil
        case let .latencyObjective(sizing), let .stability(sizing): return sizing
        }
    }
}
