import Foundation
import PoolSizeModel

/// Samples a process's threads at Poisson-timed instants for a while: each sweep reads every
/// thread's schedstat (C and Q, exact and cumulative), its state and, when it is not running,
/// its blocking syscall and the descriptor that call waits on. The target is never stopped or
/// signalled; the sampler's own CPU is measured and, at the standard rate, held within 1% of
/// one core by slowing down when sweeps get expensive.
///
/// The first and the last sweep also read each thread's status (context switches). Runs on the
/// calling thread until the duration is over, the target exits or `stop` is raised.
package enum Sampler {
    /// Children are looked for this often with `--children`.
    static let childScanSeconds = 1.0

    /// Samples `plan.pid`, whose facts `probe` gathered.
    package static func run<Generator: RandomNumberGenerator>(
        plan: SamplerPlan, probe: TargetProbe, startedByObserver: Bool, generator: Generator, stop: StopSignal
    ) -> SamplerOutcome {
        let architecture = SyscallArchitecture.current ?? .x86_64
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var schedule = PoissonSchedule(generator: generator)
        let sockets = SocketTables()
        var watchers: [Int32: ProcessWatcher] = [
            plan.pid: ProcessWatcher(pid: plan.pid, architecture: architecture, sockets: sockets)
        ]
        var processes: [Int32: RawProcessTexts] = [plan.pid: watchers[plan.pid]!.processTexts()]
        // Each sweep is added as it is read: what is kept follows the threads and the time
        // buckets, not the samples (a day at the full rate holds what a minute does).
        var accumulator = ObservationAccumulator(
            architecture: architecture, clockTicksPerSecond: ticks, groupRules: plan.groupRules,
            titles: [plan.pid: ProcessFacts.title(processes[plan.pid]!.cmdline)])
        var lastSweepSeconds: Double?
        var raw: [RawSweep] = []
        var threadReads = 0

        let cpuStart = ObserverClock.threadCPUNanoseconds(), processStart = ObserverClock.processCPUNanoseconds()
        let start = ObserverClock.bootSeconds()
        let deadline = start + plan.durationSeconds
        var exitedAt: Double?
        /// When a sweep found the target gone: a started command's end, to the sweep.
        var goneAt: Double?

        /// One sweep over every watched process; false once the target itself has exited
        /// (gone, or only a zombie leader left for its parent to reap).
        func sweep(withStatus: Bool) -> Bool {
            let now = ObserverClock.bootSeconds()
            var texts: [RawThreadTexts] = [], stats: [RawProcessStat] = []
            for watcher in watchers.values {
                if let stat = watcher.stat() { stats.append(RawProcessStat(pid: watcher.pid, stat: stat)) }
                texts += watcher.sweep(now: now, withStatus: withStatus)
            }
            let rawSweep = RawSweep(timeSeconds: now, threads: texts, processes: stats)
            let parsed = SampleSweep(rawSweep, clockTicksPerSecond: ticks)
            threadReads += texts.count
            let targetAlive = parsed.readings.contains { $0.pid == plan.pid && $0.state != "Z" && $0.state != "X" }
            guard targetAlive else {
                goneAt = now
                return false
            }
            accumulator.add(parsed)
            lastSweepSeconds = parsed.timeSeconds
            if plan.keepRawTexts { raw.append(rawSweep) }
            return true
        }

        func scanChildren() {
            var found = Set<Int32>(), frontier = [plan.pid]
            while let pid = frontier.popLast() {
                for child in watchers[pid]?.children()
                    ?? ProcessWatcher(pid: pid, architecture: architecture, sockets: sockets).children()
                where found.insert(child).inserted {
                    frontier.append(child)
                }
            }
            for pid in found where watchers[pid] == nil {
                let watcher = ProcessWatcher(pid: pid, architecture: architecture, sockets: sockets)
                watchers[pid] = watcher
                processes[pid] = watcher.processTexts()
                accumulator.setTitle(ProcessFacts.title(processes[pid]!.cmdline), pid: pid)
            }
            for pid in watchers.keys where pid != plan.pid && !found.contains(pid) { watchers[pid] = nil }
        }

        if plan.includeChildren { scanChildren() }
        var alive = sweep(withStatus: true)
        if !alive { exitedAt = 0 }
        var budget = SamplingBudget(rate: plan.rate, plannedSeconds: plan.durationSeconds)
        budget.firstSwept(costSeconds: Double(ObserverClock.threadCPUNanoseconds() - cpuStart) / 1e9)
        var lastChildScan = start
        var interrupted = false
        var cycleStart = ObserverClock.threadCPUNanoseconds(), tablesBefore = sockets.readNanoseconds
        while alive {
            let now = ObserverClock.bootSeconds()
            let gap = schedule.nextGap(meanSeconds: budget.meanGapSeconds(elapsedSeconds: now - start))
            if now + gap >= deadline || !budget.allowsSweep {
                interrupted = stop.sleep(seconds: deadline - now)
                break
            }
            if stop.sleep(seconds: gap) {
                interrupted = true
                break
            }
            if plan.includeChildren, now - lastChildScan >= childScanSeconds {
                scanChildren()
                lastChildScan = now
            }
            alive = sweep(withStatus: false)
            // The cost of a cycle (waking up, the sweep, going back to sleep) follows the thread
            // count; an average over the last few steers the rate without chasing one slow read.
            // Socket table reads are paced on their own (SocketTables) and left out.
            let cycleEnd = ObserverClock.threadCPUNanoseconds(), tables = sockets.readNanoseconds
            let cost = Double((cycleEnd - cycleStart) &- min(cycleEnd - cycleStart, tables - tablesBefore)) / 1e9
            cycleStart = cycleEnd
            tablesBefore = tables
            budget.swept(cycleSeconds: cost, spentSeconds: Double(cycleEnd - cpuStart) / 1e9)
            if !alive { exitedAt = (lastSweepSeconds ?? start) - start }
        }
        let lastStart = ObserverClock.threadCPUNanoseconds()
        if alive { alive = sweep(withStatus: true) }
        let lastCost = ObserverClock.threadCPUNanoseconds() - lastStart
        // As they stand at the end: a forked worker shows its parent's title until it sets its
        // own, and a launcher (pyenv's shim, a shell) execs the program it starts.
        for (pid, watcher) in watchers {
            let texts = watcher.processTexts()
            if !texts.cmdline.isEmpty { processes[pid] = texts }
        }
        let processList = processes.values.sorted { $0.pid < $1.pid }
        if !alive && exitedAt == nil { exitedAt = (lastSweepSeconds ?? start) - start }

        var cost = SamplerCost(
            sweeps: accumulator.sweeps, threadReads: threadReads,
            samplerCPUNanoseconds: ObserverClock.threadCPUNanoseconds() - cpuStart,
            processCPUNanoseconds: ObserverClock.processCPUNanoseconds() - processStart,
            wallSeconds: ObserverClock.bootSeconds() - start)
        if case let .automatic(_, fraction) = plan.rate {
            cost.budgetFraction = fraction
            cost.boundarySweepsCPUNanoseconds = UInt64(budget.reserveSeconds * 1e9) + lastCost
        }
        var limits = probe.limits
        let kinds = Set(limits.map(\.kind))
        if !kinds.contains(.otherUser) && !kinds.contains(.syscallDenied)
            && watchers.values.contains(where: \.syscallDenied)
        {
            limits.append(
                ObservationLimit(kind: .syscallDenied, pid: plan.pid, yamaPtraceScope: TargetProbe.yamaPtraceScope()))
        }
        // Whether observe started the target decides which advice can lift the limit.
        for index in limits.indices where limits[index].kind == .syscallDenied {
            limits[index].startedByObserver = startedByObserver
        }
        if !kinds.contains(.noSchedstat) && watchers.values.contains(where: \.schedstatMissing) {
            limits.append(ObservationLimit(kind: .noSchedstat, pid: plan.pid))
        }
        // A command observe started ends the observation as it ends (as `time`, `perf stat`
        // and `strace` end with theirs): no limit, the figures cover its life. A running
        // process that vanishes cut the observation short.
        if let exitedAt, !startedByObserver {
            limits.insert(ObservationLimit(kind: .targetExited, pid: plan.pid, afterSeconds: exitedAt), at: 0)
        }
        let commandEnded = startedByObserver && exitedAt != nil ? (goneAt ?? lastSweepSeconds ?? start) - start : nil
        let header = ObservationHeader(
            target: ObservedTarget(
                pid: plan.pid, command: probe.command, startedByObserver: startedByObserver,
                includesChildren: plan.includeChildren),
            architecture: architecture, clockTicksPerSecond: ticks, cores: probe.cores, seed: plan.seed, sampler: cost,
            limits: limits, cpuPressureSomePercent: TargetProbe.cpuPressure(), plannedSeconds: plan.durationSeconds,
            interrupted: interrupted && exitedAt == nil,
            commandEndedSeconds: commandEnded)
        return SamplerOutcome(
            accumulated: accumulator, header: header, processes: processList.map(ProcessFacts.init),
            recording: plan.keepRawTexts ? ProcRecording(header: header, sweeps: raw, processes: processList) : nil,
            interrupted: interrupted && exitedAt == nil)
    }
}
