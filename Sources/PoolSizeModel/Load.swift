/// How tasks reach the pool in a sweep's trials. Each way of loading a pool is one case: the
/// trial loop, the recommender and the report follow from the case, so a new way of loading
/// (a pool that resizes itself, a process observed from outside) is a new case, not a new set
/// of optionals beside the old ones.
public enum Load: Sendable, Equatable {
    /// The closed loop: every queue is kept busy, a finished task making room for the next. The
    /// answer is the knee of throughput over pool size.
    case closed
    /// The open loop: tasks arrive at the plan's rates whatever the pool is doing, so queueing
    /// shows in the latency. The answer is the smallest size that keeps up, or meets the
    /// latency objective, at the highest rate.
    case open(ArrivalPlan)

    /// The arrival plan of an open loop; nil for the closed loop.
    public var arrival: ArrivalPlan? {
        if case let .open(plan) = self { return plan }
        return nil
    }

    /// The rate each trial of a (combination, size, repetition) is run at: one trial without a
    /// rate in the closed loop, one per offered rate in the open loop.
    public var trialRates: [ArrivalRate?] {
        switch self {
        case .closed: return [nil]
        case let .open(plan): return plan.rates
        }
    }
}

extension Load: Codable {
    /// machine.json: `{"kind": "closed"}` or `{"kind": "open", "arrival": {…}}`, so a reader
    /// sees which load a run had before it reads the load's details.
    enum CodingKeys: String, CodingKey { case kind, arrival }

    /// The cases' names in the file.
    enum Kind: String, Codable { case closed, open }

    /// The load machine.json records, by its `kind`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .closed: self = .closed
        case .open: self = .open(try container.decode(ArrivalPlan.self, forKey: .arrival))
        }
    }

    /// `kind`, and the arrival plan of an open loop.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .closed:
            try container.encode(Kind.closed, forKey: .kind)
        case let .open(plan):
            try container.encode(Kind.open, forKey: .kind)
            try container.encode(plan, forKey: .arrival)
        }
    }
}

extension Load {
    /// The load as `records` carried it: an open loop keeps the rates they measured (a run
    /// stopped part-way measured fewer than it planned), in ascending order.
    package func measured(by records: [TrialRecord]) -> Load {
        switch self {
        case .closed: return .closed
        case var .open(plan):
            var rates: [ArrivalRate] = []
            for rate in records.compactMap(\.arrivalRate).sorted() where !rates.contains(rate) { rates.append(rate) }
            if !rates.isEmpty { plan.rates = rates }
            return .open(plan)
        }
    }
}
