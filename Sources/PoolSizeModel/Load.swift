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

    /// The load an answer is for, in words: a closed loop is a continuous stream (every queue
    /// kept two tasks deep, so N queues never run dry), whose best size can differ from a
    /// batch's that ends (its last tasks leave queues idle); an open loop's tasks arrive at its
    /// rates whatever the pool's backlog.
    package var served: String {
        switch self {
        case .closed:
            return
                "a continuous stream: every queue kept two tasks deep, so a size of N always has N tasks in flight; a batch that ends (tasks submitted at once, then waited for) may peak at another size"
        case let .open(arrival):
            let rates = arrival.rates.map { UnitFormat.rate($0.perSecond) }.joined(separator: ", ")
            return "tasks arriving at \(rates) (\(arrival.process.rawValue)), whatever the pool's backlog"
        }
    }

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

    /// Whether throughput over pool size has a knee to look for: the closed loop's answer is that
    /// knee, so an adaptive search brackets it and `auto` sizes widen toward it; an open loop
    /// measures every planned trial around the rates' load.
    package var hasThroughputKnee: Bool {
        switch self {
        case .closed: return true
        case .open: return false
        }
    }

    /// Whether the trials can be listed before the sweep runs (given the sizes and a grid
    /// search): not for a range of rates, whose trials at each rate are counted as they run.
    package var plansTrialsAhead: Bool {
        switch self {
        case .closed: return true
        case let .open(plan): return !plan.isRange
        }
    }

    /// The repetitions of each trial when none are asked for: 3 give a spread; a range of rates
    /// measures every size at each rate once, its neighbouring rates giving the spread.
    package var defaultRepetitions: Int {
        switch self {
        case .closed: return 3
        case let .open(plan): return plan.isRange ? 1 : 3
        }
    }

    /// How sizes are chosen when no search is asked for: adaptive for `auto` sizes in the closed
    /// loop, whose knee it brackets; every size of the grid otherwise.
    package func defaultSearch(sizes: SizeSelection) -> SearchMode {
        sizes == .auto && hasThroughputKnee ? .adaptive : .grid
    }

    /// The load as messages show it (a plan differing from a run's): the closed loop, or the
    /// rates, the spacing and the objective of an open loop.
    package var summary: String {
        switch self {
        case .closed:
            return "a closed loop (no \(PoolSizeError.Parameter.arrivalRates.mention))"
        case let .open(arrival):
            let rates = arrival.rates.map(\.description).joined(separator: ",")
            let slo =
                arrival.latencySLOMicroseconds.map {
                    ", p\(UnitFormat.number(arrival.sloPercentile)) ≤ \(UnitFormat.number($0)) µs"
                } ?? ""
            return "\(rates) \(arrival.process.rawValue)\(slo)"
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
