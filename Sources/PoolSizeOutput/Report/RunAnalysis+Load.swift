import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats

extension RunAnalysis {
    /// The load a run had, as the views need it: the closed loop's answer is on each
    /// combination's throughput curve; the open loop's at its rates, with every configuration at
    /// every rate and the verdict tables. Decided once, from the run's recorded load
    /// (`RunData.load`); each view switches on it once.
    package enum Loop: Equatable, Sendable {
        /// Every queue kept busy; the curves are the answer.
        case closed
        /// Arrivals at the plan's rates.
        case open(OpenLoop)

        /// The loop of `run`, from its recorded load; `summaries` are its valid configurations.
        init(_ run: RunData, summaries: [ConfigurationSummary]) {
            switch run.load {
            case .closed:
                self = .closed
            case let .open(arrival):
                self = .open(
                    OpenLoop(
                        arrival: arrival, summaries: summaries.filter { $0.arrivalRate != nil },
                        tables: SLOSizer.tables(run.records, arrival: arrival, lowLoad: run.lowLoad),
                        topRate: arrival.topRate))
            }
        }

        /// The open loop's figures; nil for the closed loop.
        package var open: OpenLoop? {
            if case let .open(open) = self { return open }
            return nil
        }

        /// The points a combination's curve holds: all of them in the closed loop, those at the
        /// rate sized for in an open loop (a curve never mixes rates).
        func curvePoints(_ summaries: [ConfigurationSummary]) -> [ConfigurationSummary] {
            switch self {
            case .closed: return summaries
            case let .open(open): return summaries.filter { $0.arrivalRate == open.topRate }
            }
        }

        /// The recommendation the sweep would have made for one combination, for runs whose
        /// recommendation.json does not hold one for it (a run stopped before the end).
        func recommend(_ run: RunData, _ records: [TrialRecord]) -> Recommendation? {
            // Failed tasks anywhere in the run withhold every recommendation, as the sweep does.
            guard let lowLoad = run.lowLoad, let cores = run.cores, run.records.withheldRecommendation == nil else {
                return nil
            }
            let settings = RunAnalysis.sizingSettings(run)
            return Recommender.recommendAll(
                workload: run.workload, records: records, lowLoad: lowLoad, cores: cores,
                targetUtilization: settings.targetUtilization, tolerance: settings.tolerance,
                specWaitCPURatio: settings.specWaitCPURatio, load: load, sizeLimit: run.info?.plan?.target.sizeLimit
            )
            .map { SizingProse.worded($0) }?.best
        }

        /// The trials a view of one curve reads (a server's cost per size): all of them in the
        /// closed loop, those at the rate sized for in an open loop.
        func curveRecords(_ records: [TrialRecord]) -> [TrialRecord] {
            switch self {
            case .closed: return records
            case let .open(open): return records.filter { $0.arrivalRate == open.topRate }
            }
        }

        /// The load this loop is of.
        var load: Load {
            switch self {
            case .closed: return .closed
            case let .open(open): return .open(open.arrival)
            }
        }

        /// A combination's USL fit or why there is none: the recommendation's when it was
        /// recorded, else fitted here; an open loop has none.
        func scalability(_ records: [TrialRecord], recorded: Recommendation?) -> (USLFit?, String?) {
            switch self {
            case .open:
                // Throughput follows the arrival rate, not the pool size: no scalability curve to fit.
                return (
                    nil, "an open loop's throughput is the arrival rate it carries, not a function of the pool size"
                )
            case .closed:
                if let usl = recorded?.usl { return (usl, nil) }
                if let refusal = recorded?.uslRefusal { return (nil, refusal) }
                return RunAnalysis.fitUSL(records)
            }
        }
    }

    /// The open loop's figures; nil for a closed-loop run.
    package var openLoop: OpenLoop? { loop.open }

    /// How the rules' heading ends: `measured in this run` (`in the same run` for the report)
    /// when every rule's size had trials, else `against the recommendation` (an adaptive search
    /// measured some of them only).
    package func rulesMeasured(_ run: String) -> String {
        rulesOfThumb.allSatisfy(\.wasMeasured) ? "measured in \(run) run" : "against the recommendation"
    }

    /// What each rule of thumb gave, a sentence each: against the knee's throughput in the
    /// closed loop, whether it met the objective at the rate in an open loop; empty for a sweep
    /// that measured no rules (`ruleSet`).
    package var ruleOfThumbSentences: [String] {
        switch loop {
        case .closed: return rulesOfThumb.map(\.sentence)
        case let .open(open): return openLoopRulesOfThumb(open).map(\.sentence)
        }
    }

    /// How a server sweep's driver loaded the server, for the report: `64 requests in flight`,
    /// or `poisson arrivals at 400/s over at most 64 connections`, and whether each request had a
    /// connection of its own.
    package func driverLoad(connections: Int) -> String {
        let load: String
        switch loop {
        case .closed: load = "\(connections) requests in flight"
        case let .open(open):
            let rates = open.rates.map { UnitFormat.rate($0) }.joined(separator: ", ")
            // A load tool's connections are its own.
            load =
                open.arrival.process == .tool
                ? "tool-paced arrivals at \(rates)"
                : "\(open.arrival.process.rawValue) arrivals at \(rates) over at most \(connections) connections"
        }
        return connectionPerRequest ? load + ", " + Self.connectionPerRequestNote : load
    }

    /// Whether poolsize's driver opened a new connection for each request of this run's trials
    /// (the server's processes share its listening socket).
    package var connectionPerRequest: Bool {
        run.records.contains { $0.watched.server?.connectionPerRequest == true }
    }

    /// What a connection per request means, for the console's and the report's line on the load.
    package static let connectionPerRequestNote =
        "a new connection for each request (the server's processes share its listening socket; a kept-alive connection would stay on the process that accepted it)"

    /// What `compare` needs of an open loop: the arrivals as asked for (machine.json's, which
    /// decide whether two runs are comparable, measured or not) and the verdict tables; nil for
    /// the closed loop.
    package var comparisonSamples: OpenLoopSamples? {
        switch loop {
        case .closed: return nil
        case let .open(open):
            return OpenLoopSamples(arrival: run.plan?.load.arrival ?? open.arrival, tables: open.tables)
        }
    }
}
