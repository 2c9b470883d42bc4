import PoolSizeModel
import PoolSizeObserve

/// What `poolsize observe` prints for people: the target and what observing cost, a table of
/// every pool, then per pool that did work its shares with their intervals, W/C, the size range,
/// where its threads blocked, and the verdict with its reason. Pure: observation in, text out.
package enum ObservationTable {
    /// Pools shown in detail: those using the most CPU.
    static let detailedPools = 5

    package static func render(_ observation: Observation) -> String {
        var out = header(observation)
        out += "\n" + summary(observation.pools)
        let busy = detailed(observation)
        for pool in busy {
            out +=
                "\n"
                + detail(
                    pool, cores: observation.cores, utilization: observation.settings.targetUtilization,
                    observedSeconds: observation.durationSeconds)
        }
        if let note = undetailed(observation) { out += "\n\(note); --format json lists every pool in full\n" }
        return out
    }

    /// `1 pool of the table is not detailed: it used less than 1 ms of CPU per second`: the
    /// pools the table lists without detail, and why; nil when every pool is detailed. The table
    /// shows every pool, so none is "other".
    static func undetailed(_ observation: Observation) -> String? {
        let shown = detailed(observation).count
        let idle = observation.pools.filter { $0.cpuCores < PoolVerdict.idleCores }.count
        let beyond = observation.pools.count - shown - idle
        let total = idle + beyond
        guard total > 0 else { return nil }
        let little = "used less than \(UnitFormat.number(PoolVerdict.idleCores * 1000)) ms of CPU per second"
        let far = "did work but \(beyond == 1 ? "lies" : "lie") beyond the \(detailedPools) shown in detail"
        var text =
            total == 1 ? "1 pool of the table is not detailed: " : "\(total) pools of the table are not detailed: "
        let pronoun = total == 1 ? "it" : "they"
        switch (idle, beyond) {
        case (_, 0): text += "\(pronoun) \(little)"
        case (0, _): text += "\(pronoun) \(far)"
        default: text += "\(idle) \(little), \(beyond) \(far)"
        }
        return text
    }

    /// `the observation was cut short after 1.5 s of the 60 s asked for (Ctrl-C or SIGTERM); the
    /// figures cover that time`; nil when it was not interrupted.
    static func cutShort(_ observation: Observation) -> String? {
        guard observation.interrupted == true else { return nil }
        let asked = observation.plannedSeconds.map { " of the \(UnitFormat.duration($0)) asked for" } ?? ""
        return
            "the observation was cut short after \(UnitFormat.duration(observation.durationSeconds))\(asked) "
            + "(Ctrl-C or SIGTERM); the figures cover that time"
    }

    /// `the command ended 1.99 s into the 20 s asked for (by the sweep that found it gone); the
    /// figures cover its life`; nil unless a command observe started ended before the duration.
    static func commandEnded(_ observation: Observation) -> String? {
        guard let seconds = observation.commandEndedSeconds else { return nil }
        let asked = observation.plannedSeconds.map { " into the \(UnitFormat.duration($0)) asked for" } ?? " in"
        return
            "the command ended \(UnitFormat.duration(seconds))\(asked) (by the sweep that found it gone); the "
            + "figures cover its life"
    }

    /// `--group 'wrkr-.*=workers' matched no thread name of the target, so pool 'workers' is
    /// empty; …`: a rule that placed no thread, and where to compare it.
    static func unmatched(_ rule: GroupRule, pid: Int32) -> String {
        let (what, list) =
            rule.field == .title
            ? ("process title", "ps -o args -p \(pid)") : ("thread name", "ps -T -o comm -p \(pid)")
        return
            "--group '\(TerminalText.escape(rule.text))' matched no \(what) of the target (or only threads an earlier "
            + "--group took), so pool '\(TerminalText.escape(rule.name))' is empty; compare the pattern with the "
            + "\(what)s (\(list))"
    }

    static func header(_ observation: Observation) -> String {
        let target = observation.target
        let sampler = observation.sampler
        var out = "pid \(target.pid)"
        if !target.command.isEmpty { out += " (\(TerminalText.escape(String(target.command.prefix(80)))))" }
        if target.startedByObserver { out += ", started by observe" }
        if target.includesChildren { out += ", with its children" }
        out +=
            ": \(UnitFormat.duration(observation.durationSeconds)) observed, \(sweeps(sampler))\n"
        let cores = observation.cores
        let derivation = cores.override != nil ? "--parallelism \(cores.effective)" : cores.derivation
        out += "cores \(cores.effective) [\(derivation)], "
        out += "U \(UnitFormat.number(observation.settings.targetUtilization))\n"
        out +=
            "observer: \(UnitFormat.percentOneDecimal(sampler.fractionOfOneCore)) of one core "
            + "(\(UnitFormat.duration(Double(sampler.samplerCPUNanoseconds) / 1e9)) CPU, "
            + "\(UnitFormat.duration(sampler.nanosecondsPerThreadRead / 1e9)) per thread read)"
        if let boundary = sampler.boundaryFractionOverPromise { out += boundaryNote(boundary) }
        if let pressure = observation.cpuPressureSomePercent {
            out += "; machine CPU pressure \(UnitFormat.number(pressure))% (PSI some avg10)"
        }
        out += "\n"
        if let cut = cutShort(observation) { out += "interrupted: \(cut)\n" }
        if let ended = commandEnded(observation) { out += "ended: \(ended)\n" }
        for rule in observation.unmatchedGroupRules ?? [] { out += "warning: \(unmatched(rule, pid: target.pid))\n" }
        if let process = processLine(observation) { out += "process: \(process)\n" }
        return out
    }

    /// The process's own CPU count (stat), with what of it no sweep saw; nil when not read.
    static func processLine(_ observation: Observation) -> String? {
        guard let cores = observation.processCPUCores else { return nil }
        var text = "\(UnitFormat.significant(cores)) cores of CPU (its stat, ended threads included)"
        if let unseen = observation.unseenThreadCPUCores, unseen > 0 {
            text += ", \(UnitFormat.significant(unseen)) cores in threads that lived between samples"
        }
        return text
    }

    /// Why the automatic rate went past its promise: the first and the last sweep, which are
    /// never skipped, cost that much alone.
    static func boundaryNote(_ fraction: Double) -> String {
        "; the first and last sweeps, which read every thread's status, took \(UnitFormat.percentOneDecimal(fraction)) "
            + "alone (a longer --duration spreads them)"
    }

    /// The pools shown in detail (and charted in a report): those that did work, the most CPU first.
    package static func detailed(_ observation: Observation) -> [PoolEstimate] {
        Array(observation.pools.filter { $0.cpuCores >= PoolVerdict.idleCores }.prefix(detailedPools))
    }

    /// The summary table's columns.
    static let summaryHeader = ["pool", "threads", "busy", "CPU (cores)", "Q/C", "W/C", "N", "verdict"]

    /// One pool's summary cells after its name, as text: the console and the report show the same.
    /// With `--latency` W/C and N are the one figure it resolved.
    static func summaryCells(_ pool: PoolEstimate) -> [String] {
        let ratio =
            pool.perTask?.resolvedWaitToCPU.map(UnitFormat.number) ?? pool.waitToCPU.map(ObservationVerdictText.range)
        return [
            String(pool.threads), ObservationVerdictText.percentRange(pool.busy),
            UnitFormat.significant(pool.cpuCores), pool.queueToCPU.map(UnitFormat.significant) ?? "–",
            ratio ?? "–", pool.judgedSize.map(ObservationVerdictText.range) ?? "–",
            ObservationVerdictText.name(pool.verdict),
        ]
    }

    /// `30 sweeps (28 Poisson-timed between the first and the last, 17.5/s)`: the first and the
    /// last sweep are taken whatever the rate, so counting them in a rate ("2 sweeps at 2/s" for
    /// `--rate 0.1` over a second) overstated it.
    static func sweeps(_ sampler: SamplerCost) -> String {
        let between = max(0, sampler.sweeps - 2)
        guard between > 0 else {
            return "\(sampler.sweeps) sweep\(sampler.sweeps == 1 ? "" : "s") (only the first and the last)"
        }
        let rate = sampler.wallSeconds > 0 ? Double(between) / sampler.wallSeconds : 0
        return
            "\(sampler.sweeps) sweeps (\(between) Poisson-timed between the first and the last, \(UnitFormat.rate(rate)))"
    }

    static func summary(_ pools: [PoolEstimate]) -> String {
        // `align` escapes every cell for the terminal: a name escaped here too showed `a\\nb`.
        ConsoleSummary.align([summaryHeader] + pools.map { [$0.name] + summaryCells($0) })
    }

    /// `running 5 ± 0.047%, runnable 0.757 ± 0.302%, …`: the shares with their intervals' half-widths.
    static func shareList(_ pool: PoolEstimate) -> String {
        pool.shares.map { share -> String in
            let half = share.interval95.map { " ± " + UnitFormat.number(($0.upper - $0.lower) / 2 * 100) } ?? ""
            return "\(label(share.kind)) \(UnitFormat.number(share.fraction * 100))\(half)%"
        }.joined(separator: ", ")
    }

    static func detail(_ pool: PoolEstimate, cores: CoreCount, utilization: Double, observedSeconds: Double) -> String {
        var out = "\(TerminalText.escape(pool.name)): " + threadsLine(pool, escape: TerminalText.escape) + "\n"
        for (label, value) in detailRows(
            pool, cores: cores, utilization: utilization, observedSeconds: observedSeconds, escape: TerminalText.escape)
        {
            out += "  " + label.padding(toLength: 12, withPad: " ", startingAt: 0) + "  " + value + "\n"
        }
        return out
    }

    /// `4 threads (worker-1, …); 4 started and 0 ended while observed; 984 samples`.
    static func threadsLine(_ pool: PoolEstimate, escape: (String) -> String) -> String {
        var out = "\(pool.threads) thread\(pool.threads == 1 ? "" : "s")"
        let names = pool.threadNames.map(escape).joined(separator: ", ")
        out += " (\(names)\(pool.threadsSeen > pool.threadNames.count ? ", …" : ""))"
        if pool.threadsStarted + pool.threadsExited > 0 {
            out += "; \(pool.threadsStarted) started and \(pool.threadsExited) ended while observed"
        }
        return out + "; \(pool.samples) samples"
    }

    /// A pool's figures as labelled lines, the verdict last; `escape` makes names from the
    /// target (thread names, calls, peers) safe for the view.
    static func detailRows(
        _ pool: PoolEstimate, cores: CoreCount, utilization: Double, observedSeconds: Double,
        escape: (String) -> String
    ) -> [(String, String)] {
        var rows = [("time", shareList(pool) + "  (95% intervals, batch means)")]
        rows.append(
            ("busy", "\(ObservationVerdictText.percentRange(pool.busy)) (running + runnable + IO, up to + ambiguous)"))
        var cpu =
            "\(UnitFormat.significant(pool.cpuCores)) cores; Q/C \(pool.queueToCPU.map(UnitFormat.significant) ?? "–")"
        if let switches = pool.switchesPerThreadSecond {
            cpu +=
                "; \(UnitFormat.number(switches.voluntary)) voluntary and \(UnitFormat.number(switches.involuntary)) "
                + "involuntary switches per thread-second"
        }
        rows.append(("CPU", cpu))
        if let ratio = pool.waitToCPU, let size = pool.size {
            var sampled = "\(ObservationVerdictText.range(ratio)) (known IO, up to + ambiguous)"
            if let interval = pool.waitToCPUInterval95 {
                sampled += "; 95% interval \(ObservationVerdictText.range(interval)) from the batches"
            }
            if let half = pool.knownIOHalfWidth,
                let seconds = pool.secondsForWantedPrecision(observedSeconds: observedSeconds)
            {
                sampled +=
                    " (known IO −\(UnitFormat.wholePercent(half)): observe about \(UnitFormat.duration(seconds.rounded(.up))) for ±\(UnitFormat.wholePercent(PoolEstimate.wantedPrecision)))"
            }
            let parallelism = pool.parallelism ?? cores.effective
            let formula = "\(parallelism) × \(UnitFormat.number(utilization)) × (1 + W/C)"
            var n = "\(ObservationVerdictText.range(size)) = \(formula)"
            if let resolvedRatio = pool.perTask?.resolvedWaitToCPU, let resolved = pool.perTask?.resolvedSize {
                rows.append(
                    ("W/C", "\(UnitFormat.number(resolvedRatio)) with --latency; from the samples alone \(sampled)"))
                n =
                    "\(UnitFormat.number(resolved)) = \(formula) with --latency; from the samples alone "
                    + ObservationVerdictText.range(size)
            } else {
                rows.append(("W/C", sampled))
            }
            if pool.parallelism != nil, let withCores = pool.sizeWithCores {
                n += "; with the \(cores.effective) cores instead \(ObservationVerdictText.range(withCores))"
            }
            rows.append(("N", n))
        }
        if let note = ObservationVerdictText.programNote(pool, cores: cores) { rows.append(("program", note)) }
        for (label, shares) in [("blocked in", pool.topCalls), ("peers", pool.topPeers)] where !shares.isEmpty {
            rows.append(
                (
                    label,
                    shares.map { "\(escape($0.label)) \(UnitFormat.wholePercent($0.fraction))" }.joined(separator: ", ")
                ))
        }
        if let task = pool.perTask { rows += perTask(task, threads: pool.threads) }
        rows.append(("verdict", ObservationVerdictText.sentence(pool, cores: cores)))
        return rows
    }

    static func perTask(_ task: TaskEstimate, threads: Int) -> [(String, String)] {
        let ms = { (seconds: Double) in UnitFormat.duration(seconds) }
        var line =
            "at \(UnitFormat.rate(task.throughputPerSecond)): C \(ms(task.cpuSeconds)), Q \(ms(task.runQueueSeconds)), "
            + "W \(ms(task.waitSeconds.low))"
        if task.waitSeconds.high > task.waitSeconds.low { line += "–\(ms(task.waitSeconds.high))" }
        line += "; N(λ) = λ(C + W) = \(ObservationVerdictText.range(task.threadsNeeded)) threads busy"
        line +=
            "; a task waits for one of the \(threads) threads with probability "
            + "\(ObservationVerdictText.percentRange(task.waitProbability)) (Erlang C)"
        var rows = [("per task", line)]
        if let resolved = task.resolvedWaitSeconds {
            var text = "W \(ms(resolved)) per task (λ·D minus the known busy threads)"
            if let inFlight = task.tasksInFlight {
                text += "; λ·D = \(UnitFormat.number(inFlight)) tasks in the pool on average"
                if inFlight >= PoolVerdict.queueingRatio * Double(threads) {
                    text +=
                        ", more than its \(threads) threads: tasks queue before the pool, or D counts time outside it"
                }
            }
            rows.append(("with latency", text))
        }
        return rows
    }

    static func label(_ kind: ShareKind) -> String {
        switch kind {
        case .running: return "running"
        case .runnable: return "runnable"
        case .blockedIO: return "IO"
        case .ambiguous: return "ambiguous"
        case .idle: return "idle"
        }
    }
}
