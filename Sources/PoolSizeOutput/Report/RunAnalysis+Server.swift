import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

extension RunAnalysis {
    /// The server a server sweep started, as its plan recorded it; nil for poolsize's own pools.
    package var server: ServerSetup? { run.info?.plan?.target.server }

    /// The rules of thumb the run's target measured beside its recommendation (a server's
    /// threads, a database's connections), as its plan recorded them; nil for poolsize's own
    /// pools and a run without a plan.
    package var ruleSet: RuleSet? {
        guard let plan = run.info?.plan else { return nil }
        return plan.target.ruleSet(cores: plan.cores)
    }

    /// What each rule of thumb gave against the recommendation's throughput, in a closed-loop
    /// sweep that measured rules and has a recommendation; empty otherwise (an open loop's are
    /// `openLoopRulesOfThumb`).
    package var rulesOfThumb: [RuleOfThumbResult] {
        guard let rules = ruleSet, loop == .closed, let primary, let recommendation = primary.recommendation else {
            return []
        }
        let alone = run.lowLoad.map { $0.cpuMicrosecondsPerTask + $0.waitMicrosecondsPerTask }
        let attempted = Set(run.records.filter { $0.combination == primary.combination }.map(\.poolSize))
        return RuleOfThumbResult.compare(
            primary.points, recommended: recommendation.recommendedQueueCount, rules: rules, attempted: attempted,
            aloneMicroseconds: alone)
    }

    /// The server's own figures per size of a server sweep (its valid trials' means, at the rate
    /// sized for in an open loop): the cores
    /// its processes kept busy, its CPU per request, its threads and memory, and the load
    /// driver's CPU per request beside them. Empty for poolsize's own pools.
    package var serverRows: [ServerRow] {
        guard server != nil, let primary else { return [] }
        let records = loop.curveRecords(run.records.valid.filter { $0.combination == primary.combination })
        return Dictionary(grouping: records, by: \.poolSize).sorted { $0.key < $1.key }.map { size, trials in
            func mean(_ value: (TrialRecord) -> Double) -> Double {
                trials.map(value).reduce(0, +) / Double(trials.count)
            }
            return ServerRow(
                size: size, throughputPerSecond: mean(\.throughputPerSecond),
                cores: mean { $0.utilization } * Double(run.info?.plan?.cores ?? 1),
                cpuMicrosecondsPerRequest: mean(\.cpuMicrosecondsPerTask),
                threads: trials.map(\.processThreads).max() ?? 0,
                rssKilobytes: mean { Double($0.maxRSSKilobytes) },
                driverCPUMicrosecondsPerRequest: mean(\.driverCPUMicrosecondsPerRequest))
        }
    }
}
