import PoolSizeAnalysis
import PoolSizeModel

extension ReportCaveats {
    /// The dispatcher's lag counts as late when its 99th percentile passes this share of the
    /// objective (of the task's own time, without one).
    package static let lateDispatch = 0.1

    /// An open-loop run's caveats: those about the trials and the machine, and the two only an
    /// open loop has (a late dispatcher, unfinished tasks). The closed loop's knee, formula and
    /// throughput-spread caveats do not apply: an open loop is judged on latency at a rate.
    static func openLoopCaveats(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> [String] {
        var out: [String] = []
        let summaries = open.summaries
        if let partial = partial(analysis.run) { out.append(partial) }
        let failed = failedTasks(summaries) { limit in
            "they count in no carried rate, but a failed task's latency counts as a finished one's, so a size where "
                + "the task fails fast can look faster than it is; a trial that lost more than \(limit) of its tasks is "
                + "left out as invalid."
        }
        if let failed { out.append(failed) }
        if let invalid = invalidTrials(analysis.run, leftOutOf: "verdict") { out.append(invalid) }
        if let violated = integrity(summaries) { out.append(violated) }
        out += nice(summaries)
        if let late = lateDispatcher(analysis, open) { out.append(late) }
        if let unfinished = unfinished(open) { out.append(unfinished) }
        if let split = splitVerdicts(analysis, open) { out.append(split) }
        if let noisy = nonMonotone(analysis, open) { out.append(noisy) }
        if let busy = busyMachine(
            analysis, summaries,
            consequence:
                " Latency measured then is higher than this pool would give alone, and a size may have missed the objective because of it."
        ) {
            out.append(busy)
        }
        if summaries.allSatisfy({ $0.throughput.count == 1 }) && !summaries.isEmpty {
            out.append(
                "**One repetition per size**: each size's verdict rests on a single trial; use `--repeat 3` or more so the worst of several decides."
            )
        }
        if let r = analysis.primary?.recommendation, let spec = specRatio(r) { out.append(spec) }
        if let tiers = contention(analysis.run) { out.append(tiers) }
        return out
    }

    /// The time the dispatcher's lag is judged against, µs, and its name: the objective when
    /// there is one (a lag well inside it cannot change a verdict), else the task's own time.
    static func lagLimit(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> (limit: Double, what: String)? {
        if let slo = open.arrival.latencySLOMicroseconds, slo > 0 {
            return (slo, "the \(UnitFormat.duration(microseconds: slo)) objective")
        }
        guard
            let own = analysis.run.lowLoad.map({
                $0.taskTime?.p50 ?? ($0.cpuMicrosecondsPerTask + $0.waitMicrosecondsPerTask)
            }), own > 0
        else { return nil }
        return (own, "the task's own \(UnitFormat.duration(microseconds: own))")
    }

    static func lateDispatcher(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> String? {
        guard let (limit, what) = lagLimit(analysis, open) else { return nil }
        let late = open.summaries.filter { ($0.openLoop?.dispatchLagP99Microseconds ?? 0) > lateDispatch * limit }
            .sorted { ($0.openLoop?.dispatchLagP99Microseconds ?? 0) > ($1.openLoop?.dispatchLagP99Microseconds ?? 0) }
        guard let worst = late.first, let lag = worst.openLoop?.dispatchLagP99Microseconds else { return nil }
        let list = late.prefix(5).map { s in "N = \(s.poolSize) at \(UnitFormat.rate(s.arrivalRate ?? 0))" }.joined(
            separator: ", ")
        return
            "**The dispatcher was late**: its 99th-percentile lag in handing tasks to the pool reached \(UnitFormat.duration(microseconds: lag)), more than \(UnitFormat.percent(lateDispatch)) of \(what) (\(list)\(late.count > 5 ? ", …" : "")). Latency counts from each task's intended arrival, so that lag is in the percentiles: the tool, not the pool, added it. Measure on a quieter machine or at a lower rate."
    }

    static func unfinished(_ open: RunAnalysis.OpenLoop) -> String? {
        let cut = open.summaries.filter { ($0.openLoop?.unfinished ?? 0) > 0 }
        guard !cut.isEmpty else { return nil }
        let list = cut.prefix(5).map { s in
            "N = \(s.poolSize) at \(UnitFormat.rate(s.arrivalRate ?? 0)): \(s.openLoop!.unfinished)"
        }.joined(separator: ", ")
        return
            "**Unfinished tasks**: tasks that arrived in the window had not finished when the trial stopped (\(list)\(cut.count > 5 ? ", …" : "")); their latency counts as their time so far, so the percentiles there are lower bounds."
    }

    /// Rates where a size did not pass though a smaller one did. That is noise, or more queues
    /// slowing what the tasks share: a lock, the cores, or the server behind them (a database's
    /// pool past its knee is slower, the 2048 → 96 story). A `--postgres` run's figures at the
    /// failing size say which.
    static func nonMonotone(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> String? {
        let passes = { (v: SLOVerdict) in v.meetsSLO ?? v.stable }
        var findings: [String] = []
        for t in open.tables {
            guard let smallest = t.verdicts.first(where: passes) else { continue }
            let failing = t.verdicts.filter { $0.poolSize > smallest.poolSize && !passes($0) }.map(\.poolSize)
            guard let largest = failing.last else { continue }
            let several = Set(open.tables.map(\.combination)).count > 1 ? " (\(t.combination.label))" : ""
            var finding =
                "at \(UnitFormat.rate(t.arrivalRate))\(several) N = \(UnitFormat.sizes(failing)) did not pass while the smaller \(smallest.poolSize) did"
            if let waits = databaseWaits(analysis, t.combination, rate: t.arrivalRate, size: largest) {
                finding += " (the database's backends at \(largest): \(waits))"
            }
            findings.append(finding)
        }
        guard !findings.isEmpty else { return nil }
        return
            "**Verdicts not ordered by size**: \(findings.prefix(5).joined(separator: "; "))\(findings.count > 5 ? "; …" : ""). Either trial-to-trial noise decided there, and the size picked at that rate is uncertain, or more queues slow what the tasks share (a lock, the cores, the server or database they call); repeat with more `--repeat` or longer trials (`--trial-ms`) to tell the two apart."
    }

    /// The largest share of a `--postgres` run's backend samples at `size` and `rate`, named:
    /// "Lock 73% of their samples"; nil for a run that watched no database.
    static func databaseWaits(_ analysis: RunAnalysis, _ combination: Combination, rate: ArrivalRate, size: Int)
        -> String?
    {
        let byRate = DatabaseProse.figuresByRate(
            analysis.run.records, combination: combination, cores: analysis.run.plan?.cores)
        guard let figures = byRate.first(where: { $0.rate == rate })?.sizes.first(where: { $0.size == size })?.figures,
            let top = figures.dominant
        else { return nil }
        return "\(top.label) \(DatabaseProse.percent(figures.share(top))) of their samples"
    }

    /// Sizes whose repetitions disagree on the objective: some met it, some did not.
    static func splitVerdicts(_ analysis: RunAnalysis, _ open: RunAnalysis.OpenLoop) -> String? {
        guard let slo = open.arrival.latencySLOMicroseconds else { return nil }
        let open1 = analysis.run.records.valid.filter(\.isOpenLoop)
        let groups = Dictionary(grouping: open1) {
            "\($0.combination)|\(($0.arrivalRate ?? 0).thousandths)|\($0.poolSize)"
        }
        let split = groups.values.filter { trials in
            let met = trials.map {
                ($0.openLoop?.stable ?? false)
                    && SLOSizer.value($0.latency, percentile: open.arrival.sloPercentile) <= slo
            }
            return met.contains(true) && met.contains(false)
        }.compactMap(\.first).sorted { ($0.arrivalRate ?? 0, $0.poolSize) < ($1.arrivalRate ?? 0, $1.poolSize) }
        guard !split.isEmpty else { return nil }
        let list = split.prefix(5).map { "N = \($0.poolSize) at \(UnitFormat.rate($0.arrivalRate ?? 0))" }.joined(
            separator: ", ")
        return
            "**Repetitions disagree**: at \(list)\(split.count > 5 ? ", …" : "") some repetitions met the objective and some did not; the worst decides, so the verdict there is the cautious one. Repeat with more `--repeat` to see how often each happens."
    }
}
