import Foundation
import PoolSizeModel
import PoolSizeAnalysis

/// What the data itself says to be careful about. Each caveat names the configurations it is
/// about and what to do; thresholds are conventions stated in the text, not hidden constants.
package enum ReportCaveats {
    /// Repetitions that disagree by more than this coefficient of variation are flagged.
    package static let highVariation = 0.10
    /// A pool that ran fewer than this share of its N tasks at once "could not reach N".
    package static let reachedShare = 0.9
    /// Other processes using more than this share of the cores made the machine noisy.
    package static let busyMachine = 0.1

    package static func caveats(_ analysis: RunAnalysis) -> [String] {
        let start =
            (analysis.run.lowLoad.flatMap(ProcessStartShare.finding).map { [processStart($0)] } ?? [])
            + (analysis.run.lowLoad.flatMap { lowLoad in
                ProcessStartShare.unmeasuredStartUp(lowLoad).map { [unmeasuredStartUp($0, lowLoad)] }
            } ?? [])
        if case let .open(open) = analysis.loop { return start + openLoopCaveats(analysis, open) }
        var out: [String] = start
        let summaries = analysis.summaries
        if let partial = partial(analysis.run) { out.append(partial) }
        let failed = failedTasks(summaries) { limit in
            "they count in no throughput, CPU or wait figure, and a trial that lost more than \(limit) of its tasks "
                + "is left out as invalid."
        }
        if let failed { out.append(failed) }
        if let invalid = invalidTrials(analysis.run, leftOutOf: "curve") { out.append(invalid) }
        let largest = analysis.primary?.points.map(\.poolSize).max() ?? 0
        let bound = analysis.boundingConnectionLimit
        if let bound { out.append(connectionLimit(bound, largest: largest)) }
        if let violated = integrity(summaries) { out.append(violated) }

        // A pool that sizes itself runs fewer than its maximum on purpose.
        for pool in PoolKind.allCases where pool.sizeOwner.holdsTrialSize && pool.sizeOwner.showsConcurrency {
            let short = summaries.filter {
                $0.combination.pool == pool && Double($0.peakConcurrency) < reachedShare * Double($0.poolSize)
            }
            guard !short.isEmpty else { continue }
            let most = summaries.filter { $0.combination.pool == pool }.map(\.peakConcurrency).max() ?? 0
            out.append(
                "**\(pool.rawValue) could not reach N**: at N = \(UnitFormat.sizes(Set(short.map(\.poolSize)).sorted())) it ran fewer than \(Int(reachedShare * 100))% of N tasks at once (at most \(most) over the whole run), so its pool size does not control its concurrency."
            )
        }

        out += nice(summaries)

        let noisy = summaries.filter { $0.throughput.count > 1 && $0.throughput.coefficientOfVariation > highVariation }
            .sorted { $0.throughput.coefficientOfVariation > $1.throughput.coefficientOfVariation }
        if !noisy.isEmpty {
            let several = Set(summaries.map(\.combination)).count > 1
            let list = noisy.prefix(5).map { s in
                (several ? "\(s.combination.label) " : "")
                    + "N = \(s.poolSize) (\(UnitFormat.percentOneDecimal(s.throughput.coefficientOfVariation)))"
            }.joined(separator: ", ")
            let more = noisy.count > 5 ? " and \(noisy.count - 5) more" : ""
            out.append(
                "**High variation between repetitions** (coefficient of variation above \(Int(highVariation * 100))%): \(list)\(more). The knee near these sizes is uncertain; repeat with more `--repeat` or on a quieter machine."
            )
        }

        if let busy = busyMachine(
            analysis, summaries, consequence: " Throughput measured then is lower than this pool would reach alone.")
        {
            out.append(busy)
        }

        let counts = RepetitionCounts(asked: analysis.run.plan?.repetitions, summaries: summaries)
        if summaries.allSatisfy({ $0.throughput.count == 1 }) && !summaries.isEmpty {
            out.append(
                "**One repetition per size**: there is no spread to judge the knee against; use `--repeat 3` or more.")
        } else if counts.measuredOnce > 0 {
            out.append(
                "**\(counts.measuredOnce) of \(counts.sizes) sizes measured once** (\(counts.phrase)): the search repeats only the sizes its decisions rest on, so these have no spread (± sd shows –). To give every size every repetition, sweep these sizes again with `--sizes-from` this run's directory."
            )
        }

        if let r = analysis.primary?.recommendation {
            // At the server's connection limit no larger size can be swept: that caveat says so.
            if r.basis == .formula, bound.map({ largest < $0 }) ?? true {
                out.append(
                    "**No knee yet**: throughput was still rising at the largest size measured, so the recommendation falls back on the formula; sweep larger sizes."
                )
            } else if let knee = r.kneeQueueCount, analysis.hasWaitCPU {
                let gap = (Double(knee) - r.formulaQueueCountExact) / r.formulaQueueCountExact
                if let phases = phases(analysis.run, formula: r) {
                    out.append(phases)
                } else if abs(gap) > Recommender.disagreementThreshold {
                    out.append(
                        "**Formula and measurement disagree** by \(UnitFormat.wholePercent(abs(gap))): the knee is at \(knee), the formula says \(UnitFormat.significant(r.formulaQueueCountExact)) (see the recommendation's reason above)."
                    )
                }
            }
            if let spec = specRatio(r) { out.append(spec) }
        }

        if let external = externalLimit(analysis) { out.append(external) }

        if !summaries.isEmpty && summaries.allSatisfy({ !($0.latencyP50Microseconds > 0) }) {
            out.append(
                "**No latency recorded**: this run's trials.csv has no latency percentiles, so there is no latency chart."
            )
        }

        if let tiers = contention(analysis.run) { out.append(tiers) }
        return out
    }

    /// Tasks that failed in the windows, with what `consequence` their failure has on this load's
    /// figures (`TrialValidity.maximumFailureShare` is the limit it may name).
    static func failedTasks(_ summaries: [ConfigurationSummary], consequence: (_ limit: String) -> String) -> String? {
        let failing = summaries.filter { $0.errors > 0 }
        guard !failing.isEmpty else { return nil }
        let total = failing.map(\.errors).reduce(0, +)
        let list = failing.prefix(5).map { "\(at($0))\($0.errors) (\(UnitFormat.percentOneDecimal($0.errorRate)))" }
            .joined(separator: ", ")
        let limit = UnitFormat.percent(TrialValidity.maximumFailureShare)
        return
            "**Failed tasks**: \(total) task(s) failed in the measurement windows (\(list)\(failing.count > 5 ? ", …" : "")); \(consequence(limit))"
    }

    /// `N = 8: ` for a closed loop, `N = 8 at 1000/s: ` for an open one.
    static func at(_ s: ConfigurationSummary) -> String {
        "N = \(s.poolSize)" + (s.arrivalRate.map { " at \(UnitFormat.rate($0))" } ?? "") + ": "
    }

    /// The trials left out as invalid, from every `figure` (a curve, a verdict) and recommendation.
    static func invalidTrials(_ run: RunData, leftOutOf figure: String) -> String? {
        let invalid = run.records.filter { $0.invalidReason != nil }
        guard !invalid.isEmpty else { return nil }
        let list = invalid.prefix(5).map { r in
            "\(r.combination.label) N = \(r.poolSize)\(r.arrivalRate.map { " at \(UnitFormat.rate($0))" } ?? "") rep \(r.repetition): \(r.invalidReason!)"
        }.joined(separator: "; ")
        // Failures and a rate the dispatcher could not offer name their own fix in the reason.
        let advice =
            invalid.contains(where: TrialValidity.mayPassWhenLonger)
            ? " Lengthen the trials (`--trial-ms`) or measure fewer sizes at once." : ""
        return
            "**Invalid trials left out**: \(invalid.count) trial(s) gave figures that are not the pool's (each reason says why: figures the machine cannot produce, failed tasks, a server that exited, a load generator that was the limit) and are not in any \(figure) or recommendation (\(list)\(invalid.count > 5 ? "; …" : "")).\(advice)"
    }

    static func integrity(_ summaries: [ConfigurationSummary]) -> String? {
        let violated = summaries.filter { $0.integrity == .violated }
        guard !violated.isEmpty else { return nil }
        let list = violated.map { s in
            "\(s.combination.label) at N = \(s.poolSize)" + (s.arrivalRate.map { " (\(UnitFormat.rate($0)))" } ?? "")
        }.joined(separator: "; ")
        return
            "**Integrity violated**: a primitive let two tasks into its critical section (\(list)). Those throughputs are not valid measurements of the primitive."
    }

    static func nice(_ summaries: [ConfigurationSummary]) -> [String] {
        var out: [String] = []
        var tiers: [QoSTier: Int] = [:]
        for s in summaries { tiers[s.combination.qos] = min(tiers[s.combination.qos] ?? .max, s.effectiveNice) }
        for tier in QoSTier.allCases {
            guard let nice = tiers[tier], nice != Int(tier.requestedNice) else { continue }
            let why =
                tier.requestedNice < 0 && nice > Int(tier.requestedNice) ? " (a negative nice needs privileges)" : ""
            out.append(
                "**\(tier.rawValue) did not get its nice value**: libdispatch asks for nice \(tier.requestedNice), but its workers ran at \(nice)\(why); its results are those of a tier at nice \(nice)."
            )
        }
        return out
    }

    /// - Parameter consequence: what the busy machine did to the figures, after the fact.
    static func busyMachine(_ analysis: RunAnalysis, _ summaries: [ConfigurationSummary], consequence: String)
        -> String?
    {
        guard let busiest = summaries.filter({ $0.otherLoad.isFinite }).max(by: { $0.otherLoad < $1.otherLoad }),
            busiest.otherLoad > busyMachine
        else { return nil }
        let description = analysis.run.plan?.spec.description ?? ""
        let localServer =
            description.hasPrefix("HTTP: ")
            && ["://127.", "://localhost", "://[::1]"].contains { description.contains($0) }
        let why =
            localServer
            ? " The HTTP server under test runs on this machine, so its CPU is counted here: it and the pool share the same cores, and the curve is that of both."
            : consequence
        let rate = busiest.arrivalRate.map { " at \(UnitFormat.rate($0))" } ?? ""
        return
            "**The machine was busy**: other processes used up to \(UnitFormat.wholePercent(busiest.otherLoad)) of the cores during a trial (N = \(busiest.poolSize)\(rate)).\(why)"
    }

    /// A spec whose task times change during each trial (`phases:`): the low-load phase measured
    /// the first stretch only, so the formula sizes that stretch while the knee sizes the mix of
    /// all of them; any gap between the two is the step, not what the reason explains it by.
    static func phases(_ run: RunData, formula r: Recommendation) -> String? {
        guard let spec = run.plan?.spec, !spec.phases.isEmpty else { return nil }
        let ratio = { (cpu: Double, wait: Double) in UnitFormat.significant(cpu > 0 ? wait / cpu : .nan) }
        let steps = spec.phases.map {
            "\(ratio($0.cpuMicroseconds, $0.waitMicroseconds)) from \(UnitFormat.duration(Double($0.startMilliseconds) / 1000))"
        }
        return
            "**The workload changes during each trial** (W/C \(ratio(spec.cpuMicroseconds, spec.waitMicroseconds)) at the start, then \(steps.joined(separator: ", "))): the formula's W/C \(UnitFormat.significant(r.waitCPURatio)) was measured at low load on the first stretch only, while every trial ran through each phase, so the knee (\(r.kneeQueueCount.map(String.init) ?? "–")) sizes their mix and the formula (\(UnitFormat.significant(r.formulaQueueCountExact))) the first; the gap between them is the step in W/C, not what the reason above explains it by. An adaptive pool (`--pool adaptive`) follows such a step."
    }

    static func specRatio(_ r: Recommendation) -> String? {
        guard let spec = r.specWaitCPURatio, spec > 0, abs(r.waitCPURatio - spec) / spec > 0.2 else { return nil }
        return
            "**W/C differs from the spec**: measured \(UnitFormat.significant(r.waitCPURatio)) at low load against \(UnitFormat.significant(spec)) declared; the machine adds wait (timer slack, scheduling) or CPU the spec does not count."
    }

    static func contention(_ run: RunData) -> String? {
        let shares = run.contention
        guard shares.count > 1, let low = shares.map(\.share).min(), let high = shares.map(\.share).max(),
            high - low < 0.05,
            Set(shares.compactMap(\.effectiveNice)).count > 1
        else { return nil }
        return
            "**Tier priorities made no difference under contention**: every tier got \(UnitFormat.wholePercent(low))–\(UnitFormat.wholePercent(high)) of the tasks despite different nice values."
    }

    /// Whether the server or device the tasks wait on, not the pool, stops the curve. Only for
    /// work outside the tool's control (a command, an HTTP endpoint, a closure, file IO): a
    /// synthetic task's wait is a sleep, which nothing outside can slow down.
    static func externalLimit(_ analysis: RunAnalysis) -> String? {
        guard let primary = analysis.primary else { return nil }
        // A watched database says why its curve bends from what its backends did (the
        // database section), which decides over the pool's own utilization.
        guard !analysis.run.records.contains(where: { $0.watched.database != nil }) else { return nil }
        let spec = analysis.run.plan?.spec
        let outside = spec.map { $0.doesFileIO || ($0.cpuMicroseconds == 0 && $0.waitMicroseconds == 0) } ?? false
        let server = analysis.run.info?.server.flatMap(ExternalLimit.ServerBehaviour.init(header:))
        guard outside || server != nil else { return nil }
        let cores = analysis.run.info?.machine?.cores.effective ?? 1
        let knee = primary.recommendation.flatMap { $0.basis == .knee ? $0.kneeQueueCount : nil }
        return ExternalLimit.finding(primary.points, cores: cores, server: server, knee: knee)
    }

    /// A run that stopped before its end: which planned trials are missing, from the plan in
    /// machine.json, or that the sweep never wrote its recommendation.
    static func partial(_ run: RunData) -> String? {
        if let planned = run.info?.plannedTrials {
            let present = Set(
                run.records.map {
                    RunInfo.PlannedTrials.Key(combination: $0.combination, size: $0.poolSize, repetition: $0.repetition)
                }.filter(planned.contains))
            let missing = planned.count - Double(present.count)
            if missing > 0 {
                let list = planned.missing(from: present, limit: 5)
                    .map { "\($0.combination) size \($0.size) rep \($0.repetition)" }.joined(separator: "; ")
                return
                    "**Partial run**: \(UnitFormat.number(missing)) of \(UnitFormat.number(planned.count)) planned trials "
                    + "are missing (\(list)\(missing > 5 ? "; …" : "")); `poolsize sweep --resume RUN_DIR` with the run's "
                    + "flags measures them."
            }
        }
        // Trials that give no recommendation (all invalid, or failing) say so themselves: the
        // sweep ran to its end and wrote none, and none is computed here either.
        // Pools that size themselves: a run of them only has no recommendation.json to miss.
        let sized = run.records.contains { $0.pool.sizeOwner.holdsTrialSize }
        if run.recommendation == nil && sized && run.records.noRecommendationCause == nil {
            return
                "**Partial run**: the sweep stopped before writing recommendation.json; the recommendation here is computed from the trials it finished."
        }
        return nil
    }

    /// A command whose C is mostly its program starting, and what measures the work instead.
    static func processStart(_ found: ProcessStartShare) -> String {
        let program = ReportInline.literal(URL(fileURLWithPath: found.start.program).lastPathComponent)
        let cost = UnitFormat.duration(microseconds: found.start.cpuMicroseconds)
        // A baseline half again costlier than a whole task does more than start the program
        // the task starts: no share of C can be said from it. (A baseline that is the whole
        // task measures about 100%, a few tens of percent either way on a busy machine.)
        if let baseline = found.start.baseline, found.share > 1.5 {
            return
                "**The baseline costs more than a task**: the baseline \(ReportInline.literal(baseline)) costs \(cost) of CPU, more than a task's whole C (\(UnitFormat.duration(microseconds: found.cpuMicrosecondsPerTask))), so it cannot be the task's start-up: it does work the task does not. Give `--exec-baseline` the `--exec` command with only its work left out (`psql … -c 'SELECT 1'` for `psql … -c 'SELECT …'`), so that it starts the same program the same way."
        }
        let share = UnitFormat.wholePercent(found.share)
        let started =
            found.start.baseline.map {
                "the baseline \(ReportInline.literal($0)), the program started with nothing to do, costs \(cost) of CPU (\(share) of C)"
            }
            ?? "starting \(program) alone, with nothing to do (the dynamic loader, before the program's own code), costs \(cost) of CPU (\(share) of C; the program's own start-up comes on top)"
        return
            "**Each task is mostly its process starting**: a task's C is \(UnitFormat.duration(microseconds: found.cpuMicrosecondsPerTask)), and \(started). The curve sizes how many processes this machine starts at once, not the work. \(withoutAProcess)"
    }

    /// A client or interpreter whose own start-up the loader's start cannot show, and how to
    /// measure it.
    static func unmeasuredStartUp(_ program: String, _ lowLoad: LowLoadEstimate) -> String {
        let loader = lowLoad.processStart.map { UnitFormat.duration(microseconds: $0.cpuMicroseconds) } ?? "–"
        let name = ReportInline.literal(program)
        return
            "**Each task starts \(name) afresh**: a task's C is \(UnitFormat.duration(microseconds: lowLoad.cpuMicrosecondsPerTask)), and \(name) does its own start-up (connecting to a server, loading a runtime) in every task, beyond the \(loader) the loader's start measured here. If that start-up is most of C, the curve sizes process starts, not the work. Measure it with `--exec-baseline`: the same command with its work left out (`psql … -c 'SELECT 1'`, `python3 -c pass`); the report then says how much of C it is. \(withoutAProcess)"
    }

    static let withoutAProcess =
        "Measure the work without a process per task: `--http` for a service with an HTTP endpoint, a Swift closure calling its client library through `Sweep` (the library), or the server's own load tool (pgbench, wrk) at each concurrency."
}
