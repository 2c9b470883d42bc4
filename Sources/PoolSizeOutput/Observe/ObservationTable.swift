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
        let busy = observation.pools.filter { $0.cpuCores >= PoolVerdict.idleCores }.prefix(detailedPools)
        for pool in busy {
            out += "\n" + detail(pool, cores: observation.cores, utilization: observation.settings.targetUtilization)
        }
        let quiet = observation.pools.count - busy.count
        if quiet > 0 {
            out +=
                "\n\(quiet) other pool\(quiet == 1 ? "" : "s") used less than \(UnitFormat.number(PoolVerdict.idleCores * 1000)) ms of CPU per second; --format json lists every pool in full\n"
        }
        return out
    }

    static func header(_ observation: Observation) -> String {
        let target = observation.target
        let sampler = observation.sampler
        var out = "pid \(target.pid)"
        if !target.command.isEmpty { out += " (\(TerminalText.escape(String(target.command.prefix(80)))))" }
        if target.startedByObserver { out += ", started by observe" }
        if target.includesChildren { out += ", with its children" }
        out +=
            ": \(UnitFormat.duration(observation.durationSeconds)) observed, \(sampler.sweeps) sweeps at \(UnitFormat.rate(sampler.meanRatePerSecond)) (Poisson-timed)\n"
        out +=
            "cores \(observation.cores.effective) [\(observation.cores.override != nil ? "--parallelism \(observation.cores.effective)" : observation.cores.derivation)], U \(UnitFormat.number(observation.settings.targetUtilization))\n"
        out +=
            "observer: \(UnitFormat.percentOneDecimal(sampler.fractionOfOneCore)) of one core (\(UnitFormat.duration(Double(sampler.samplerCPUNanoseconds) / 1e9)) CPU, \(UnitFormat.duration(sampler.nanosecondsPerThreadRead / 1e9)) per thread read)"
        if let pressure = observation.cpuPressureSomePercent {
            out += "; machine CPU pressure \(UnitFormat.number(pressure))% (PSI some avg10)"
        }
        return out + "\n"
    }

    static func summary(_ pools: [PoolEstimate]) -> String {
        var rows = [["pool", "threads", "busy", "CPU (cores)", "Q/C", "W/C", "N", "verdict"]]
        for pool in pools {
            rows.append([
                TerminalText.escape(pool.name), String(pool.threads), ObservationVerdictText.percentRange(pool.busy),
                UnitFormat.significant(pool.cpuCores), pool.queueToCPU.map(UnitFormat.significant) ?? "–",
                pool.waitToCPU.map(ObservationVerdictText.range) ?? "–",
                pool.size.map(ObservationVerdictText.range) ?? "–",
                ObservationVerdictText.name(pool.verdict),
            ])
        }
        return ConsoleSummary.align(rows)
    }

    static func detail(_ pool: PoolEstimate, cores: CoreCount, utilization: Double) -> String {
        var out = "\(TerminalText.escape(pool.name)): \(pool.threads) thread\(pool.threads == 1 ? "" : "s")"
        let names = pool.threadNames.map(TerminalText.escape).joined(separator: ", ")
        out += " (\(names)\(pool.threadsSeen > pool.threadNames.count ? ", …" : ""))"
        if pool.threadsStarted + pool.threadsExited > 0 {
            out += "; \(pool.threadsStarted) started and \(pool.threadsExited) ended while observed"
        }
        out += "; \(pool.samples) samples\n"
        let shares = pool.shares.map { share -> String in
            let half = share.interval95.map { " ± " + UnitFormat.number(($0.upper - $0.lower) / 2 * 100) } ?? ""
            return "\(label(share.kind)) \(UnitFormat.number(share.fraction * 100))\(half)%"
        }
        out += "  time          " + shares.joined(separator: ", ") + "  (95% intervals, batch means)\n"
        out +=
            "  busy          \(ObservationVerdictText.percentRange(pool.busy)) (running + runnable + IO, up to + ambiguous)\n"
        out +=
            "  CPU           \(UnitFormat.significant(pool.cpuCores)) cores; Q/C \(pool.queueToCPU.map(UnitFormat.significant) ?? "–")"
        if let switches = pool.switchesPerThreadSecond {
            out +=
                "; \(UnitFormat.number(switches.voluntary)) voluntary and \(UnitFormat.number(switches.involuntary)) involuntary switches per thread-second"
        }
        out += "\n"
        if let ratio = pool.waitToCPU, let size = pool.size {
            out += "  W/C           \(ObservationVerdictText.range(ratio)) (known IO, up to + ambiguous)\n"
            out +=
                "  N             \(ObservationVerdictText.range(size)) = \(cores.effective) × \(UnitFormat.number(utilization)) × (1 + W/C)\n"
        }
        if !pool.topCalls.isEmpty {
            out +=
                "  blocked in    "
                + pool.topCalls.map { "\(TerminalText.escape($0.label)) \(UnitFormat.wholePercent($0.fraction))" }
                .joined(separator: ", ") + "\n"
        }
        if !pool.topPeers.isEmpty {
            out +=
                "  peers         "
                + pool.topPeers.map { "\(TerminalText.escape($0.label)) \(UnitFormat.wholePercent($0.fraction))" }
                .joined(separator: ", ") + "\n"
        }
        if let task = pool.perTask { out += perTask(task, threads: pool.threads) }
        out += "  verdict       " + ObservationVerdictText.sentence(pool, cores: cores) + "\n"
        return out
    }

    static func perTask(_ task: TaskEstimate, threads: Int) -> String {
        let ms = { (seconds: Double) in UnitFormat.duration(seconds) }
        var out =
            "  per task      at \(UnitFormat.rate(task.throughputPerSecond)): C \(ms(task.cpuSeconds)), Q \(ms(task.runQueueSeconds)), W \(ms(task.waitSeconds.low))"
        if task.waitSeconds.high > task.waitSeconds.low { out += "–\(ms(task.waitSeconds.high))" }
        out += "; N(λ) = λ(C + W) = \(ObservationVerdictText.range(task.threadsNeeded)) threads busy"
        out +=
            "; a task waits for one of the \(threads) threads with probability \(ObservationVerdictText.percentRange(task.waitProbability)) (Erlang C)\n"
        if let resolved = task.resolvedWaitSeconds {
            out += "  with latency  W \(ms(resolved)) per task (λ·D minus the known busy threads)\n"
        }
        return out
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
