import PoolSizeModel
import PoolSizeStats

/// Everything the estimator gathers about one pool while it walks the sweeps; `estimate`
/// turns it into the pool's figures. Internal to the estimator.
struct PoolAccumulator {
    var total = PoolTally()
    var batches: [PoolTally]
    var seen = Set<ThreadKey>()
    var started = Set<ThreadKey>()
    var exited = Set<ThreadKey>()
    var names = Set<String>()
    var calls: [String: Int] = [:]
    var peers: [String: Int] = [:]
    var mostAlive = 0
    /// Each thread's first and last status counts, with the sweep times they were read at.
    var firstSwitches: [ThreadKey: (time: Double, voluntary: UInt64, involuntary: UInt64)] = [:]
    var lastSwitches: [ThreadKey: (time: Double, voluntary: UInt64, involuntary: UInt64)] = [:]

    init(batches: Int) {
        self.batches = Array(repeating: PoolTally(), count: max(1, batches))
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
        batch: Int, threadSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double, sample: SampleClass
    ) {
        total.add(
            threadSeconds: threadSeconds, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample)
        batches[batch].add(
            threadSeconds: threadSeconds, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample)
    }

    func estimate(name: String, durationSeconds: Double, cores: CoreCount, settings: EstimatorSettings) -> PoolEstimate
    {
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
        let coreCount = Double(cores.effective)
        let size = waitToCPU.map {
            $0.map {
                SizingFormula.queueCount(
                    cores: coreCount, targetUtilization: settings.targetUtilization, waitCPURatio: $0)
            }
        }
        let ranked = { (counts: [String: Int]) -> [LabelShare] in
            let blocked = max(
                1, (total.samples[.blockedIO] ?? 0) + (total.samples[.idle] ?? 0) + (total.samples[.ambiguous] ?? 0))
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
            topCalls: ranked(calls), topPeers: ranked(peers), switchesPerThreadSecond: switchRates, perTask: nil)
        estimate.verdict = PoolVerdict.decide(estimate)
        return estimate
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
