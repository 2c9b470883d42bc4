import PoolSizeModel
import PoolSizeStats

/// Everything the estimator gathers about one pool (while sampling: about the threads of one
/// provisional pool in one process) as the samples arrive; `estimate` turns it into the pool's
/// figures. Internal to the estimator. Its size follows the time buckets and the labels, not the
/// samples: batch atoms and slices are buckets on `ObservationAccumulator`'s grids, which widen
/// (adjacent buckets merged) rather than grow past their caps.
struct PoolAccumulator: Sendable {
    var total = PoolTally()
    /// One tally per stretch of sweep intervals, gathered into the batch-means batches once the
    /// observation's length is known.
    var atoms = Buckets(empty: PoolTally())
    /// The timeline: one tally per slice, and the samples whose sweep fell in each. A slice past
    /// the observation's last whole one (a final sliver) is folded into that one at the end.
    var slices = Buckets(empty: PoolTally())
    var sliceSamples = Buckets(empty: 0)
    var threadsSeen = 0
    var threadsStarted = 0
    var threadsExited = 0
    /// The first thread names in sorted order, at most `keptNames`.
    var names: [String] = []
    var calls: [String: Int] = [:]
    var peers: [String: Int] = [:]
    var mostAlive = 0
    /// CPU seconds by process: which of the pool's processes did work.
    var cpuByProcess: [Int32: Double] = [:]
    /// Time between two status reads and the switches in it, over the threads read twice.
    var switchSeconds = 0.0
    var voluntarySwitches = 0.0
    var involuntarySwitches = 0.0

    /// The thread names a pool's estimate lists.
    static let keptNames = 5
    /// The most distinct call or peer labels kept; past it the rarest half is dropped (a
    /// server's clients each have a peer address of their own). Five are reported.
    static let keptLabels = 4096

    /// The pool's processes, each once.
    var pids = Set<Int32>()

    mutating func see(_ comm: String, pid: Int32) {
        pids.insert(pid)
        name(comm)
    }

    mutating func name(_ comm: String) {
        guard !names.contains(comm) else { return }
        guard names.count < Self.keptNames || comm < names[names.count - 1] else { return }
        names.insert(comm, at: names.firstIndex { $0 > comm } ?? names.count)
        if names.count > Self.keptNames { names.removeLast() }
    }

    mutating func add(
        atom: Int, pid: Int32, threadSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double,
        sample: SampleClass
    ) {
        cpuByProcess[pid, default: 0] += cpuSeconds
        total.add(
            threadSeconds: threadSeconds, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample)
        atoms[atom].add(
            threadSeconds: threadSeconds, cpuSeconds: cpuSeconds, runQueueSeconds: runQueueSeconds, sample: sample)
    }

    /// Counts a blocked sample's call and the peer of its socket.
    mutating func count(call: String, peer: String?) {
        Self.count(call, in: &calls)
        if let peer { Self.count(peer, in: &peers) }
    }

    private static func count(_ label: String, in counts: inout [String: Int]) {
        counts[label, default: 0] += 1
        guard counts.count > keptLabels else { return }
        let kept = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(keptLabels / 2)
        counts = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// Spreads one thread's interval `[start, end]` (seconds after the first sweep) over the
    /// slices it overlaps, each getting its part of the time, CPU, run-queue time and sample;
    /// the sample itself is counted where the interval ends.
    mutating func addToSlices(
        start: Double, end: Double, sliceSeconds: Double, cpuSeconds: Double, runQueueSeconds: Double,
        sample: SampleClass
    ) {
        guard sliceSeconds > 0 else { return }
        let slice = { (time: Double) in max(0, Int(time / sliceSeconds)) }
        // The slice an interval ends in holds its end: a sweep at 1.0 s closes the first second.
        let ending = max(0, Int((end / sliceSeconds).rounded(.up)) - 1)
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

    /// The time grids at twice the width.
    mutating func widenAtoms() { atoms.mergePairs(Self.sum) }

    mutating func widenSlices() {
        slices.mergePairs(Self.sum)
        sliceSamples.mergePairs(+)
    }

    private static func sum(_ a: PoolTally, _ b: PoolTally) -> PoolTally {
        var sum = a
        sum.add(b)
        return sum
    }

    /// Adds another part of the same pool (its threads in another process, or under another
    /// provisional name).
    mutating func merge(_ other: PoolAccumulator) {
        total.add(other.total)
        for (index, tally) in other.atoms.indexed { atoms[index].add(tally) }
        for (index, tally) in other.slices.indexed { slices[index].add(tally) }
        for (index, count) in other.sliceSamples.indexed { sliceSamples[index] += count }
        pids.formUnion(other.pids)
        threadsSeen += other.threadsSeen
        threadsStarted += other.threadsStarted
        threadsExited += other.threadsExited
        for name in other.names { self.name(name) }
        for (label, count) in other.calls { calls[label, default: 0] += count }
        for (label, count) in other.peers { peers[label, default: 0] += count }
        for (pid, seconds) in other.cpuByProcess { cpuByProcess[pid, default: 0] += seconds }
        switchSeconds += other.switchSeconds
        voluntarySwitches += other.voluntarySwitches
        involuntarySwitches += other.involuntarySwitches
    }

    /// Adds one thread's switches between its first and its last status read.
    mutating func addSwitches(seconds: Double, voluntary: Double, involuntary: Double) {
        switchSeconds += seconds
        voluntarySwitches += voluntary
        involuntarySwitches += involuntary
    }

    /// The batch-means batches: each atom goes to the batch its last sweep (`atomEnds`, seconds
    /// after the first) falls in.
    func batches(count: Int, atomEnds: [Double], durationSeconds: Double) -> [PoolTally] {
        var batches = Array(repeating: PoolTally(), count: max(1, count))
        for (index, tally) in atoms.indexed {
            let end = index < atomEnds.count ? atomEnds[index] : durationSeconds
            let batch =
                durationSeconds > 0 ? min(batches.count - 1, Int(end / durationSeconds * Double(batches.count))) : 0
            batches[batch].add(tally)
        }
        return batches
    }

    func estimate(
        name: String, durationSeconds: Double, grid: ObservationGrid, cores: CoreCount, settings: EstimatorSettings,
        processes: [Int32: ProcessFacts] = [:]
    ) -> PoolEstimate {
        let shares = total.shares
        let fraction = { (kind: ShareKind) in shares[kind] ?? 0 }
        let batchTallies = batches(count: grid.batchCount, atomEnds: grid.atomEnds, durationSeconds: durationSeconds)
            .filter { $0.threadSeconds > 0 }
        let batchShares = batchTallies.map(\.shares)
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
        let programs = pids.sorted().map { processes[$0]?.program }
        let program = programs.first.flatMap { first in programs.allSatisfy { $0?.kind == first?.kind } ? first : nil }
        // An interpreter lock runs one thread of the language per process: the pool's
        // parallelism is its processes that did work (not an idle supervisor beside its
        // workers), at most the cores; --parallelism, when given, rules.
        let working = max(
            1, PoolVerdict.workingProcesses(cpuSeconds: cpuByProcess, over: durationSeconds).count)
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
            name: name, threadNames: names, threads: mostAlive,
            meanThreads: durationSeconds > 0 ? total.threadSeconds / durationSeconds : 0,
            threadsSeen: threadsSeen, threadsStarted: threadsStarted, threadsExited: threadsExited,
            samples: total.sampleCount,
            shares: estimates, busy: ValueRange(low: known, high: known + fraction(.ambiguous)),
            cpuCores: durationSeconds > 0 ? total.cpuSeconds / durationSeconds : 0,
            queueToCPU: total.cpuSeconds > 0 ? total.runQueueSeconds / total.cpuSeconds : nil,
            waitToCPU: waitToCPU, size: size, verdict: PoolVerdict(kind: .undetermined, reason: .noWork),
            topCalls: ranked(calls), topPeers: ranked(peers), switchesPerThreadSecond: switchRates, perTask: nil,
            timeline: timeline(durationSeconds: durationSeconds, grid: grid))
        estimate.processes = working
        estimate.waitToCPUInterval95 = waitToCPU.flatMap { WaitToCPUInterval.of(batchTallies, range: $0) }
        estimate.program = program
        if let parallelism, parallelism != cores.effective {
            estimate.parallelism = parallelism
            estimate.sizeWithCores = formula(cores.effective)
        }
        estimate.verdict = PoolVerdict.decide(estimate)
        return estimate
    }

    /// The slices as the pool's timeline; a bucket past the last slice (the final sliver)
    /// joins it.
    func timeline(durationSeconds: Double, grid: ObservationGrid) -> [PoolSlice] {
        let count = grid.sliceCount, width = grid.sliceSeconds
        guard count > 0 else { return [] }
        var tallies = (0..<count).map { slices[$0] }
        var samples = (0..<count).map { sliceSamples[$0] }
        for (index, tally) in slices.indexed where index >= count { tallies[count - 1].add(tally) }
        for (index, value) in sliceSamples.indexed where index >= count { samples[count - 1] += value }
        return tallies.indices.map { index in
            let start = Double(index) * width
            let end = index == count - 1 ? durationSeconds : Double(index + 1) * width
            let tally = tallies[index], length = end - start
            return PoolSlice(
                startSeconds: start, endSeconds: end, meanThreads: length > 0 ? tally.threadSeconds / length : 0,
                cpuCores: length > 0 ? tally.cpuSeconds / length : 0, samples: samples[index],
                shares: tally.threadSeconds > 0 ? ShareFractions(tally.shares) : nil)
        }
    }

    /// Switches per thread-second over the threads whose status was read twice.
    var switchRates: PoolEstimate.SwitchRates? {
        switchSeconds > 0
            ? PoolEstimate.SwitchRates(
                voluntary: voluntarySwitches / switchSeconds, involuntary: involuntarySwitches / switchSeconds) : nil
    }
}
