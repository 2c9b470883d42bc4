import PoolSizeModel
import PoolSizeStats

/// Everything the estimator gathers about one pool while it walks the sweeps; `estimate`
/// turns it into the pool's figures. Internal to the estimator.
struct PoolAccumulator {
    var total = PoolTally()
    var batches: [PoolTally]
    /// The timeline: one tally per slice, and the samples whose sweep fell in each.
    var slices: [PoolTally]
    var sliceSamples: [Int]
    var seen = Set<ThreadKey>()
    var started = Set<ThreadKey>()
    var exited = Set<ThreadKey>()
    var names = Set<String>()
    var calls: [String: Int] = [:]
    var peers: [String: Int] = [:]
    var mostAlive = 0
    /// CPU seconds by process: which of the pool's processes did work.
    var cpuByProcess: [Int32: Double] = [:]
    /// Each thread's first and last status counts, with the sweep times they were read at.
    var firstSwitches: [ThreadKey: (time: Double, voluntary: UInt64, involuntary: UInt64)] = [:]
    var lastSwitches: [ThreadKey: (time: Double, voluntary: UInt64, involuntary: UInt64)] = [:]

    init(batches: Int, slices: Int) {
        self.batches = Array(repeating: PoolTally(), count: max(1, batches))
        self.slices = Array(repeating: PoolTally(), count: slices)
        sliceSamples = Array(repeating: 0, count: slices)
    }

    mutating func see(_ reading: ThreadReading, at timeSeconds: Double) {
        let key = ThreadKey(reading)
        seen.insert(key)
        names.insert(reading.comm)
        if let switches = reading.switches {
            let entry = (time: timeSeconds, voluntary: switches.voluntary, involuntary: switches.involuntary)
            if firstSwitches[key] == nil { firstSwitches[key] = entry }
            lastSwitches[key] = entry
        }
    }

    mutating func add(
        batch: Int, pid: Int32, threadSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double,
        sample: SampleClass
    ) {
        cpuByProcess[pid, default: 0] += cpuSeconds
        total.add(
            threadSeconds: threadSeconds, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample)
        batches[batch].add(
            threadSeconds: threadSeconds, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample)
    }

    /// Spreads one thread's interval `[start, end]` (seconds after the first sweep) over the
    /// slices it overlaps, each getting its part of the time, CPU, run-queue time and sample;
    /// the sample itself is counted where the interval ends.
    mutating func addToSlices(
        start: Double, end: Double, sliceSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double,
        sample: SampleClass
    ) {
        guard !slices.isEmpty, sliceSeconds > 0 else { return }
        let last = slices.count - 1
        let slice = { (time: Double) in min(last, max(0, Int(time / sliceSeconds))) }
        // The slice an interval ends in holds its end: a sweep at 1.0 s closes the first second.
        let ending = min(last, max(0, Int((end / sliceSeconds).rounded(.up)) - 1))
        sliceSamples[ending] += 1
        let length = end - start
        guard length > 0 else {
            slices[ending].add(
                threadSeconds: 0, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample, weight: 1)
            return
        }
        for index in slice(start)...slice(end) {
            let from = index == slice(start) ? start : Double(index) * sliceSeconds
            let to = index == slice(end) ? end : Double(index + 1) * sliceSeconds
            let part = max(0, to - from) / length
            guard part > 0 else { continue }
            slices[index].add(
                threadSeconds: length * part, cpuSeconds: cpuSeconds * part, runQueueSeconds: runQueueSeconds * part,
                sample: sample, weight: part)
        }
    }

    func estimate(
        name: String, durationSeconds: Double, sliceSeconds: Double, cores: CoreCount, settings: EstimatorSettings,
        processes: [Int32: ProcessFacts] = [:]
    ) -> PoolEstimate {
        let shares = total.shares
        let fraction = { (kind: ShareKind) in shares[kind] ?? 0 }
        let batchShares = batches.filter { $0.threadSeconds > 0 }.map(\.shares)
        let estimates = ShareKind.allCases.map { kind -> ShareEstimate in
            let value = fraction(kind)
            let interval = Summary(batchShares.map { $0[kind] ?? 0 }).flatMap(\.confidenceInterval95).map { ci in
                ConfidenceInterval(
                    lower: max(0, value - ci.halfWidth), upper: min(1, value + ci.halfWidth), level: ci.level)
            }
            return ShareEstimate(kind: kind, fraction: value, interval95: batchShares.count >= 2 ? interval : nil)
        }
        let known = fraction(.running) + fraction(.runnable) + fraction(.blockedIO)
        let running = fraction(.running)
        let waitToCPU =
            running > 0
            ? ValueRange(
                low: fraction(.blockedIO) / running, high: (fraction(.blockedIO) + fraction(.ambiguous)) / running)
            : nil
        let pids = Set(seen.map(\.pid))
        let programs = pids.sorted().map { processes[$0]?.program }
        let program = programs.first.flatMap { first in programs.allSatisfy { $0?.kind == first?.kind } ? first : nil }
        // An interpreter lock runs one thread of the language per process: the pool's
        // parallelism is its processes that did work (not an idle supervisor beside its
        // workers), at most the cores; --parallelism, when given, rules.
        let working = max(
            1, cpuByProcess.values.filter { durationSeconds > 0 && $0 / durationSeconds >= PoolVerdict.idleCores }.count
        )
        let parallelism =
            program?.hasInterpreterLock == true && cores.override == nil ? min(cores.effective, working) : nil
        let formula = { (count: Int) in
            waitToCPU.map {
                $0.map {
                    SizingFormula.queueCount(
                        cores: Double(count), targetUtilization: settings.targetUtilization, waitCPURatio: $0)
                }
            }
        }
        let size = formula(parallelism ?? cores.effective)
        let ranked = { (counts: [String: Int]) -> [LabelShare] in
            let blocked = max(1, total.count(.blockedIO) + total.count(.idle) + total.count(.ambiguous))
            return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
                .map { LabelShare(label: $0.key, samples: $0.value, fraction: Double($0.value) / Double(blocked)) }
        }
        var estimate = PoolEstimate(
            name: name, threadNames: Array(names.sorted().prefix(5)), threads: mostAlive,
            meanThreads: durationSeconds > 0 ? total.threadSeconds / durationSeconds : 0,
            threadsSeen: seen.count, threadsStarted: started.count, threadsExited: exited.count,
            samples: total.sampleCount,
            shares: estimates, busy: ValueRange(low: known, high: known + fraction(.ambiguous)),
            cpuCores: durationSeconds > 0 ? total.cpuSeconds / durationSeconds : 0,
            queueToCPU: total.cpuSeconds > 0 ? total.runQueueSeconds / total.cpuSeconds : nil,
            waitToCPU: waitToCPU, size: size, verdict: PoolVerdict(kind: .undetermined, reason: .noWork),
            topCalls: ranked(calls), topPeers: ranked(peers), switchesPerThreadSecond: switchRates, perTask: nil,
            timeline: timeline(durationSeconds: durationSeconds, sliceSeconds: sliceSeconds))
        estimate.processes = working
        estimate.program = program
        if let parallelism, parallelism != cores.effective {
            estimate.parallelism = parallelism
            estimate.sizeWithCores = formula(cores.effective)
        }
        estimate.verdict = PoolVerdict.decide(estimate)
        return estimate
    }

    /// The slices as the pool's timeline.
    func timeline(durationSeconds: Double, sliceSeconds: Double) -> [PoolSlice] {
        slices.indices.map { index in
            let start = Double(index) * sliceSeconds
            let end = index == slices.count - 1 ? durationSeconds : Double(index + 1) * sliceSeconds
            let tally = slices[index], length = end - start
            return PoolSlice(
                startSeconds: start, endSeconds: end, meanThreads: length > 0 ? tally.threadSeconds / length : 0,
                cpuCores: length > 0 ? tally.cpuSeconds / length : 0, samples: sliceSamples[index],
                shares: tally.threadSeconds > 0 ? ShareFractions(tally.shares) : nil)
        }
    }

    /// Switches per thread-second over the threads whose status was read twice.
    var switchRates: PoolEstimate.SwitchRates? {
        var seconds = 0.0, voluntary = 0.0, involuntary = 0.0
        // In thread order: a sum in dictionary order would change its last bits from run to run.
        for key in firstSwitches.keys.sorted(by: { ($0.pid, $0.tid) < ($1.pid, $1.tid) }) {
            guard let first = firstSwitches[key], let last = lastSwitches[key], last.time > first.time else { continue }
            seconds += last.time - first.time
            voluntary += Double(last.voluntary &- min(last.voluntary, first.voluntary))
            involuntary += Double(last.involuntary &- min(last.involuntary, first.involuntary))
        }
        return seconds > 0
            ? PoolEstimate.SwitchRates(voluntary: voluntary / seconds, involuntary: involuntary / seconds) : nil
    }
}
