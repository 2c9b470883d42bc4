import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

extension SweepPlan {
    /// The adaptive search this plan runs once the formula's N (`prediction`) is known: within
    /// an explicit `--sizes`, or over any size for `auto`.
    package func sizeSearch(prediction: Double) -> SizeSearch {
        var candidates: [Int]? = nil
        if case let .explicit(list) = sizes { candidates = list }
        var limit: Int? = nil, thrifty = false
        if case let .server(setup) = target {
            // The driver keeps `connections` requests in flight: a larger size would measure
            // the driver (an invalid trial), so the search stays within them.
            if setup.loadTool == nil { limit = max(1, setup.connections) }
            thrifty = true
        }
        // A database's connections: a larger pool could not connect.
        if let bound = target.sizeLimit { limit = min(limit ?? bound, bound) }
        return SizeSearch(
            prediction: prediction, cores: cores, tolerance: tolerance, repetitions: repetitions,
            candidates: candidates,
            seeds: ruleSizes, limit: limit, thrifty: thrifty)
    }
}

extension SweepRunner {
    /// Runs the adaptive search for each combination in turn: asks `search` what to measure,
    /// measures it (each batch in a seeded shuffled order), and asks again until it is done.
    /// The decisions depend only on the records, so a resumed run, whose finished trials come
    /// back from `done`, asks for the same trials with the same seeds.
    func runSearch(_ search: SizeSearch, context: SweepContext, rng: inout SeededGenerator) throws(PoolSizeError)
        -> [TrialRecord]
    {
        let plan = context.plan
        var records: [TrialRecord] = []
        // One retry budget for the whole search, as a grid has: a quarter of the trials it has
        // asked for so far (at least 2), topped up as each batch is added.
        var retryBudget = 0, allowed = 0
        for combination in plan.combinations {
            var mine: [TrialRecord] = []
            while true {
                let samples = Dictionary(grouping: mine.valid, by: \.poolSize).mapValues {
                    $0.map(\.throughputPerSecond)
                }
                let attempts = Dictionary(grouping: mine, by: \.poolSize).mapValues(\.count)
                // A size whose trials keep coming out invalid is not asked for forever: the
                // search is told, and goes on around it.
                let exhausted = Set(attempts.filter { $0.value >= 2 * plan.repetitions + 2 }.keys)
                var batch: [PlannedTrial] = []
                for (size, wanted) in search.next(samples, exhausted: exhausted).sorted(by: { $0.key < $1.key }) {
                    let tried = attempts[size] ?? 0
                    guard !exhausted.contains(size) else { continue }
                    let missing = wanted - (samples[size]?.count ?? 0)
                    batch += (0..<max(0, missing)).map {
                        PlannedTrial(combination: combination, size: size, repetition: tried + 1 + $0)
                    }
                }
                if batch.isEmpty { break }
                batch.shuffle(using: &rng)
                let topUp = max(2, (records.count + batch.count) / 4) - allowed
                allowed += topUp
                retryBudget += topUp
                let finished = try runTrials(
                    batch, context: context, indexOffset: records.count, retryBudget: &retryBudget)
                mine += finished
                records += finished
            }
        }
        return records
    }
}
