import PoolSizeStats

extension Recommendation {
    /// How a count was chosen, with that answer's evidence. Each load has its own kind of answer:
    /// the closed loop's is on the throughput curve, the open loop's at an arrival rate.
    public enum Sizing: Equatable, Sendable {
        /// The measured knee of the throughput curve.
        case knee(ThroughputCurve)
        /// The formula, because the measured curve had no plateau to find a knee on.
        case formula(ThroughputCurve)
        /// The smallest size whose latency percentile met the objective at the rate.
        case latencyObjective(LatencySizing)
        /// The smallest size that kept up with the rate (no latency objective).
        case stability(LatencySizing)

        /// An open-loop sizing: by its objective, or by keeping up when it has none.
        public static func arrivals(_ sizing: LatencySizing) -> Sizing {
            sizing.latencySLOMicroseconds == nil ? .stability(sizing) : .latencyObjective(sizing)
        }

        /// The sizing a file names by `basis`, its evidence read from the same object: a
        /// curve's figures are required for the curve's answers, and optional for an arrival
        /// rate's (present where the highest rate's curve had a knee).
        init(basis: Basis, from decoder: any Decoder) throws {
            switch basis {
            case .knee: self = .knee(try ThroughputCurve(from: decoder))
            case .formula: self = .formula(try ThroughputCurve(from: decoder))
            case .latencySLO, .stability:
                var sizing = try LatencySizing(from: decoder)
                sizing.curve = try ThroughputCurve.ifPresent(in: decoder)
                self = basis == .latencySLO ? .latencyObjective(sizing) : .stability(sizing)
            }
        }

        /// Writes the evidence beside the header's figures (one flat object, as the file has
        /// always been).
        func encode(to encoder: any Encoder) throws {
            switch self {
            case let .knee(curve), let .formula(curve): try curve.encode(to: encoder)
            case let .latencyObjective(sizing), let .stability(sizing):
                try sizing.encode(to: encoder)
                try sizing.curve?.encode(to: encoder)
            }
        }

        /// The throughput curve's evidence: the curve answered on, or the highest rate's
        /// curve when it had a knee.
        public var curve: ThroughputCurve? {
            switch self {
            case let .knee(curve), let .formula(curve): return curve
            case let .latencyObjective(sizing), let .stability(sizing): return sizing.curve
            }
        }

        /// Whether the count reached what it was chosen for: a curve's answer always does; an
        /// arrival rate's when a measured size met the objective (kept up, without one).
        public var reachedItsTarget: Bool {
            switch self {
            case .knee, .formula: return true
            case let .latencyObjective(sizing), let .stability(sizing): return sizing.met
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

    /// The throughput curve's evidence (knee, peak, tolerance, USL): always for a closed loop's
    /// answer; for an open loop's, its highest rate's curve when that curve had a knee.
    public var curve: ThroughputCurve? { sizing.curve }
    /// The curve the count was answered on (a knee's or the formula's); nil for a count chosen
    /// for an arrival rate, whose carried throughput flattens at the rate offered.
    package var answeredCurve: ThroughputCurve? {
        switch sizing {
        case let .knee(curve), let .formula(curve): return curve
        case .latencyObjective, .stability: return nil
        }
    }
    /// The knee the answer rests on, as the sweep recorded it: `.knee`'s; nil for `.formula`,
    /// which `Recommender` chooses only while the curve still rises at the largest size measured
    /// (no knee yet: the curve's `kneeQueueCount` is then that largest size, not a bend), and for
    /// an arrival rate's answer. A reader asks this, never the curve's figure, for the knee. (A
    /// run without W/C answers `.knee` even while rising, but has no formula to set it against.)
    package var measuredKneeQueueCount: Int? {
        if case let .knee(curve) = sizing { return curve.kneeQueueCount }
        return nil
    }
    /// The largest size measured when the curve still rose there (`.formula`: no knee yet); nil
    /// when a knee was measured or the count was chosen for an arrival rate.
    package var stillRisingAtQueueCount: Int? {
        if case let .formula(curve) = sizing { return curve.kneeQueueCount }
        return nil
    }
    /// The knee of `curve`: the smallest queue count within the tolerance of the peak.
    public var kneeQueueCount: Int? { curve?.kneeQueueCount }
    /// The queue count of `curve`'s highest mean throughput.
    public var peakQueueCount: Int? { curve?.peakQueueCount }
    /// `curve`'s Universal Scalability Law fit, when the data support one.
    public var usl: USLFit? { curve?.usl }
    /// Why `curve` has no USL fit, when it is refused.
    public var uslRefusal: String? { curve?.uslRefusal }
}
