import PoolSizeModel

/// What `compare` needs of an open-loop run: its arrivals and objective, and every size's
/// verdict per combination and rate.
package struct OpenLoopSamples: Equatable, Sendable {
    /// The arrivals and objective as asked for (machine.json), which decide whether two runs
    /// compare; a run stopped part-way has measured fewer rates than it planned.
    package var arrival: ArrivalPlan
    /// Per combination and rate measured.
    package var tables: [OpenLoopRateTable]

    package init(arrival: ArrivalPlan, tables: [OpenLoopRateTable]) {
        self.arrival = arrival
        self.tables = tables
    }

    package func table(_ combination: Combination, rate: ArrivalRate) -> OpenLoopRateTable? {
        tables.first { $0.combination == combination && $0.arrivalRate == rate }
    }
}

/// Two open-loop runs of the same arrivals and objective side by side: per combination, rate
/// and size whether the objective was met in each and how the percentile moved, and per rate
/// the recommended size in each.
package struct OpenLoopComparison: Equatable, Sendable, Codable {
    /// The arrivals and objective both runs share.
    package var arrival: ArrivalPlan
    /// The recommendation at each rate, per combination.
    package var sizings: [OpenLoopSizingComparison]
    /// Every combination, rate and size measured in both runs.
    package var sizes: [OpenLoopSizeComparison]
}

/// One size at one rate in both runs.
package struct OpenLoopSizeComparison: Equatable, Sendable, Codable {
    package var combination: Combination
    package var arrivalRate: ArrivalRate
    package var poolSize: Int
    /// Met the objective (kept up, without one) in the base run.
    package var baseMet: Bool
    package var currentMet: Bool
    package var baseStable: Bool
    package var currentStable: Bool
    /// The objective's percentile, the worst repetition's, µs.
    package var basePercentileMicroseconds: Double
    package var currentPercentileMicroseconds: Double
    /// (current − base) / base of that percentile.
    package var relativeChange: Double
    /// Met in the base run and not now: a regression. Stored, as `OpenLoopSizingComparison.grew`
    /// is, so the JSON carries it and a reader needs no rule of its own.
    package let lost: Bool
    /// Missed in the base run and met now.
    package let gained: Bool

    enum CodingKeys: String, CodingKey {
        case combination, poolSize, baseMet, currentMet, baseStable, currentStable, relativeChange, lost, gained
        case arrivalRate = "arrivalRatePerS"
        case basePercentileMicroseconds = "basePercentileUs"
        case currentPercentileMicroseconds = "currentPercentileUs"
    }

    package init(combination: Combination, arrivalRate: ArrivalRate, base: SLOVerdict, current: SLOVerdict) {
        self.combination = combination
        self.arrivalRate = arrivalRate
        poolSize = base.poolSize
        baseMet = base.meetsSLO ?? base.stable
        currentMet = current.meetsSLO ?? current.stable
        baseStable = base.stable
        currentStable = current.stable
        basePercentileMicroseconds = base.percentileMicroseconds
        currentPercentileMicroseconds = current.percentileMicroseconds
        relativeChange =
            base.percentileMicroseconds > 0
            ? (current.percentileMicroseconds - base.percentileMicroseconds) / base.percentileMicroseconds : 0
        lost = baseMet && !currentMet
        gained = !baseMet && currentMet
    }
}

/// The recommended size at one rate in both runs.
package struct OpenLoopSizingComparison: Equatable, Sendable, Codable {
    package var combination: Combination
    package var arrivalRate: ArrivalRate
    /// nil when no size met the objective in that run.
    package var base: Int?
    package var current: Int?
    /// The recommendation grew past the next size either run measured above the base's (or no
    /// size meets the objective any more): a regression.
    package var grew: Bool

    enum CodingKeys: String, CodingKey {
        case combination, base, current, grew
        case arrivalRate = "arrivalRatePerS"
    }

    /// - Parameter sizes: the sizes measured at this rate in either run.
    package init(combination: Combination, arrivalRate: ArrivalRate, base: Int?, current: Int?, sizes: [Int]) {
        self.combination = combination
        self.arrivalRate = arrivalRate
        self.base = base
        self.current = current
        switch (base, current) {
        case let (b?, c?):
            // One size step is the next size measured above the base's: noise can move the
            // answer there, not further.
            let next = sizes.filter { $0 > b }.min() ?? b
            grew = c > next
        case (_?, nil): grew = true
        default: grew = false
        }
    }
}

extension RunComparator {
    /// Open-loop runs are comparable only with open-loop runs of the same arrivals and objective:
    /// another rate, process, percentile or objective changes what "met" means.
    static func checkOpenLoop(base: RunSamples, current: RunSamples) throws(PoolSizeError) {
        switch (base.openLoop, current.openLoop) {
        case (nil, nil): return
        case let (b?, nil):
            throw .incomparable(
                details:
                    "base \(base.runID) is an open-loop run (\(describe(b.arrival))) and current \(current.runID) a closed loop; compare two runs of the same kind"
            )
        case let (nil, c?):
            throw .incomparable(
                details:
                    "base \(base.runID) is a closed loop and current \(current.runID) an open-loop run (\(describe(c.arrival))); compare two runs of the same kind"
            )
        case let (b?, c?):
            let (x, y) = (b.arrival, c.arrival)
            let sameRates =
                x.rates.count == y.rates.count && zip(x.rates.sorted(), y.rates.sorted()).allSatisfy { $0 == $1 }
            var differences: [String] = []
            if !sameRates { differences.append("rates \(rates(x)) vs \(rates(y))") }
            if x.process != y.process { differences.append("arrivals \(x.process.rawValue) vs \(y.process.rawValue)") }
            if x.sloPercentile != y.sloPercentile {
                differences.append(
                    "percentile \(SLOSizer.name(percentile: x.sloPercentile)) vs \(SLOSizer.name(percentile: y.sloPercentile))"
                )
            }
            if x.latencySLOMicroseconds != y.latencySLOMicroseconds {
                differences.append("objective \(objective(x)) vs \(objective(y))")
            }
            if !differences.isEmpty {
                throw .incomparable(
                    details:
                        "the open-loop runs differ in \(differences.joined(separator: ", ")) (base \(base.runID), current \(current.runID)); compare runs swept with the same \(PoolSizeError.Parameter.arrivalRates.mention), \(PoolSizeError.Parameter.arrivalProcess.mention), \(PoolSizeError.Parameter.latencySLO.mention) and \(PoolSizeError.Parameter.sloPercentile.mention)"
                )
            }
        }
    }

    /// `poisson arrivals at 1000/s, p99 ≤ 40 ms`.
    static func describe(_ a: ArrivalPlan) -> String {
        "\(a.process.rawValue) arrivals at \(rates(a)), \(objective(a))"
    }
    static func rates(_ a: ArrivalPlan) -> String { a.rates.map { UnitFormat.rate($0) }.joined(separator: ", ") }
    static func objective(_ a: ArrivalPlan) -> String {
        a.latencySLOMicroseconds.map {
            "\(SLOSizer.name(percentile: a.sloPercentile)) ≤ \(UnitFormat.duration(microseconds: $0))"
        } ?? "no latency objective"
    }

    /// Two open-loop runs already found comparable.
    static func compareOpenLoop(
        base: RunSamples, current: RunSamples, b: OpenLoopSamples, c: OpenLoopSamples, threshold: Double
    ) -> RunComparison {
        var sizes: [OpenLoopSizeComparison] = []
        var sizings: [OpenLoopSizingComparison] = []
        var notes: [String] = []
        for baseTable in b.tables {
            guard let currentTable = c.table(baseTable.combination, rate: baseTable.arrivalRate) else {
                notes.append(
                    "\(baseTable.combination) at \(UnitFormat.rate(baseTable.arrivalRate)) is only in the base run, not compared."
                )
                continue
            }
            let rate = baseTable.arrivalRate
            for v in baseTable.verdicts {
                guard let w = currentTable.verdict(v.poolSize) else { continue }
                sizes.append(
                    OpenLoopSizeComparison(combination: baseTable.combination, arrivalRate: rate, base: v, current: w))
            }
            let measured = Set(baseTable.verdicts.map(\.poolSize) + currentTable.verdicts.map(\.poolSize)).sorted()
            sizings.append(
                OpenLoopSizingComparison(
                    combination: baseTable.combination, arrivalRate: rate,
                    base: baseTable.recommendedQueueCount, current: currentTable.recommendedQueueCount, sizes: measured)
            )
            let onlyBase = Set(baseTable.verdicts.map(\.poolSize)).subtracting(currentTable.verdicts.map(\.poolSize))
                .sorted()
            let onlyCurrent = Set(currentTable.verdicts.map(\.poolSize)).subtracting(baseTable.verdicts.map(\.poolSize))
                .sorted()
            if !onlyBase.isEmpty {
                notes.append(
                    "At \(UnitFormat.rate(rate)) sizes \(UnitFormat.sizes(onlyBase)) of \(baseTable.combination) are only in the base run, not compared."
                )
            }
            if !onlyCurrent.isEmpty {
                notes.append(
                    "At \(UnitFormat.rate(rate)) sizes \(UnitFormat.sizes(onlyCurrent)) of \(baseTable.combination) are only in the current run, not compared."
                )
            }
        }
        for t in c.tables where b.table(t.combination, rate: t.arrivalRate) == nil {
            notes.append(
                "\(t.combination) at \(UnitFormat.rate(t.arrivalRate)) is only in the current run, not compared.")
        }
        let lost = sizes.filter(\.lost)
        let grew = sizings.filter(\.grew)
        let improved =
            sizes.contains(where: \.gained)
            || sizings.contains { s in
                switch (s.base, s.current) {
                case let (b?, c?): return c < b;
                case (nil, _?): return true;
                default: return false
                }
            }
        let verdict: ComparisonVerdict =
            !lost.isEmpty || !grew.isEmpty ? .regression : improved ? .improvement : .unchanged
        let goal = objective(b.arrival)
        var summary: String
        if lost.isEmpty && grew.isEmpty {
            summary =
                "No size lost the objective (\(goal)) and no recommendation grew beyond one size step in \(sizes.count) size(s) compared"
                + (improved ? "; some improved." : ".")
        } else {
            let findings =
                grew.map { s in
                    "\(s.combination) at \(UnitFormat.rate(s.arrivalRate)): recommended \(s.base.map(String.init) ?? "none") → \(s.current.map(String.init) ?? "none met it")"
                }
                + lost.map { s in
                    "\(s.combination) N = \(s.poolSize) at \(UnitFormat.rate(s.arrivalRate)) met \(goal) in the base run (\(UnitFormat.duration(microseconds: s.basePercentileMicroseconds))) and misses it now (\(s.currentStable ? "" : "fell behind, ")\(UnitFormat.duration(microseconds: s.currentPercentileMicroseconds)))"
                }
            summary =
                "The open-loop sizing regressed: " + findings.prefix(3).joined(separator: "; ")
                + (findings.count > 3 ? "; and \(findings.count - 3) more" : "") + "."
        }
        if b.arrival.latencySLOMicroseconds == nil {
            notes.append("No latency objective: a size \"meets\" it when it keeps up with the arrivals.")
        }
        if sizes.contains(where: { !$0.currentStable || !$0.baseStable }) {
            notes.append(
                "A size that fell behind has a percentile that only grows with a longer trial: its change is a lower bound."
            )
        }
        var comparison = RunComparison(
            baseRunID: base.runID, currentRunID: current.runID,
            workload: base.workloadNames.intersection(current.workloadNames).sorted().joined(separator: ", "),
            cores: base.cores ?? current.cores, threshold: threshold, alpha: alpha, configurations: [],
            onlyInBase: [], onlyInCurrent: [], regressions: lost.count + grew.count, verdict: verdict, summary: summary,
            notes: notes)
        comparison.recommendationChanges = grew.count
        comparison.openLoop = OpenLoopComparison(arrival: b.arrival, sizings: sizings, sizes: sizes)
        return comparison
    }
}
