import PoolSizeModel

/// An observation's figures gathered sweep by sweep as the samples arrive, so that what is kept
/// follows the threads alive, the pools and the time buckets, never the number of samples: a day
/// at the full rate holds what a minute does. The sampler feeds it live; a recording replays
/// through it (`ObservationEstimator.estimate`). `observation` turns it into the estimate.
///
/// For each pair of consecutive sweeps every thread present in both contributes the time
/// between them and its schedstat deltas (C and Q exactly); a thread that started in between
/// contributes from its start time (stat field 22) with all its counters; a thread gone from
/// the later sweep contributes nothing more. The sample at the later sweep says what the thread
/// was doing.
///
/// Which pool a thread belongs to is settled at the end (its last name, the titles its
/// processes ended with, `PoolGrouping`), so contributions are gathered in parts, one per
/// process and provisional pool, and the parts of a pool merged at the end. The last
/// `keptSweeps` sweeps are held back before they are added: a thread that renames itself (the
/// JVM names threads once started, a shim execs the program) takes those with it to its new
/// name; what it did under its old name before them stays there.
package struct ObservationAccumulator: Sendable {
    /// The sweeps held back before their samples are added, for a thread's rename to move them.
    static let keptSweeps = 64
    /// The most batch atoms; past it adjacent atoms merge. Many times the batches, so an atom
    /// straddling a batch boundary moves little time.
    static let maximumAtoms = 1024

    private let architecture: SyscallArchitecture
    private let startTolerance: Double
    private let grouping: PoolGrouping
    private var titles: [Int32: String] {
        didSet { titleKeys = titles.mapValues(PoolGrouping.titleKey) }
    }
    /// `PoolGrouping.titleKey` of each title, kept with them: every sweep asks for it per pool,
    /// and splitting a JVM's long command line each time was most of a sweep's cost.
    private var titleKeys: [Int32: String?] = [:]
    private var firstTime: Double?
    private var lastTime = 0.0
    private var sweepCount = 0
    private var threads: [ThreadKey: LiveThread] = [:]
    private var pending: [PendingSweep] = []
    private var parts: [PoolAccumulator] = []
    private var partKeys: [PartKey] = []
    private var partIndex: [PartKey: Int] = [:]
    /// The first thread name seen in each part, which the final grouping places.
    private var representative: [String] = []
    /// Each thread name's part, by process: grouping runs regular expressions, once per name.
    private var partOfName: [Int32: [String: Int]] = [:]
    private var namesCached = 0
    private var atomWidth = 1
    private var atomEnds: [Double] = []
    private var sliceSeconds = 1.0
    private var aliveByName: [String: Int] = [:]
    private var aliveByTitle: [TitledName: Int] = [:]
    /// Each process's CPU from its stat at the first and the latest sweep it was read at, and
    /// its threads' CPU counted in between.
    private var processCPU: [Int32: ProcessCPU] = [:]

    /// An empty accumulator for a target on `architecture` whose stat counts `clockTicksPerSecond`,
    /// grouping threads by `groupRules` and the process `titles` known so far.
    package init(
        architecture: SyscallArchitecture, clockTicksPerSecond: Double, groupRules: [GroupRule],
        titles: [Int32: String] = [:]
    ) {
        self.architecture = architecture
        startTolerance = 1 / clockTicksPerSecond
        grouping = PoolGrouping(rules: groupRules)
        self.titles = titles
        titleKeys = titles.mapValues(PoolGrouping.titleKey)
    }

    /// Sweeps added so far.
    package var sweeps: Int { sweepCount }

    /// Seconds from the first sweep to the last.
    package var durationSeconds: Double { firstTime.map { lastTime - $0 } ?? 0 }

    /// What is held, counted in entries (threads, held-back samples, buckets, labels): bounded by
    /// the threads alive, the pools and the grids' caps, whatever the number of samples.
    package var heldEntries: Int {
        threads.count + pending.reduce(0) { $0 + $1.events.count } + atomEnds.count + namesCached
            + parts.reduce(0) {
                $0 + 1 + $1.atoms.values.count + $1.slices.values.count + $1.calls.count + $1.peers.count
                    + $1.cpuByProcess.count
            }
    }

    /// Sets a process's title (as read when it was found, or again later).
    package mutating func setTitle(_ title: String, pid: Int32) {
        guard titles[pid] != title else { return }
        titles[pid] = title
        namesCached -= partOfName[pid]?.count ?? 0
        partOfName[pid] = nil
    }

    /// Adds one sweep, the next in time.
    package mutating func add(_ sweep: SampleSweep) {
        // Zombie and dead threads hold no time.
        let readings = sweep.readings.filter { $0.state != "Z" && $0.state != "X" }
        let time = sweep.timeSeconds
        let previousTime = lastTime
        let interval = sweepCount
        sweepCount += 1
        lastTime = time
        guard let start = firstTime else {
            firstTime = time
            for (pid, nanoseconds) in sweep.processCPUNanoseconds {
                processCPU[pid] = ProcessCPU(first: nanoseconds, last: nanoseconds)
            }
            var next: [ThreadKey: LiveThread] = [:]
            let events = readings.map { reading in
                note(reading, at: time, into: &next)
                return Event(key: ThreadKey(reading), part: next[ThreadKey(reading)]!.part, comm: reading.comm)
            }
            threads = next
            hold(PendingSweep(interval: 0, end: 0, events: events))
            return
        }
        let end = time - start
        while end > Double(ObservationEstimator.maximumSlices) * sliceSeconds {
            sliceSeconds *= 2
            for index in parts.indices { parts[index].widenSlices() }
        }
        if (interval - 1) / atomWidth >= Self.maximumAtoms {
            atomWidth *= 2
            atomEnds = stride(from: 0, to: atomEnds.count, by: 2).map { atomEnds[min($0 + 1, atomEnds.count - 1)] }
            for index in parts.indices { parts[index].widenAtoms() }
        }
        let atom = (interval - 1) / atomWidth
        if atom < atomEnds.count { atomEnds[atom] = end } else { atomEnds.append(end) }

        let before = threads
        let tracked = processCPU
        for (pid, nanoseconds) in sweep.processCPUNanoseconds {
            if processCPU[pid] == nil {
                processCPU[pid] = ProcessCPU(first: nanoseconds, last: nanoseconds)
            } else {
                processCPU[pid]!.last = nanoseconds
            }
        }
        var next: [ThreadKey: LiveThread] = [:]
        var events: [Event] = []
        events.reserveCapacity(readings.count)
        for reading in readings {
            let key = ThreadKey(reading)
            let isNew = before[key] == nil && next[key] == nil
            note(reading, at: time, into: &next)
            var event = Event(key: key, part: next[key]!.part, comm: reading.comm)
            defer { events.append(event) }
            let threadSeconds: Double, cpu: UInt64, queue: UInt64
            if let earlier = before[key] {
                threadSeconds = time - previousTime
                cpu = reading.cpuNanoseconds &- min(reading.cpuNanoseconds, earlier.cpuNanoseconds)
                queue =
                    (reading.runQueueNanoseconds ?? 0)
                    &- min(reading.runQueueNanoseconds ?? 0, earlier.runQueueNanoseconds ?? 0)
            } else if reading.startSeconds >= previousTime - startTolerance {
                // Started in between: everything it has counted is from this interval.
                if isNew { next[key]!.started = true }
                threadSeconds = max(0, time - max(previousTime, reading.startSeconds))
                cpu = reading.cpuNanoseconds
                queue = reading.runQueueNanoseconds ?? 0
            } else {
                // Seen late (a child process found by a rescan): this reading is its baseline.
                continue
            }
            if tracked[reading.pid] != nil, sweep.processCPUNanoseconds[reading.pid] != nil {
                processCPU[reading.pid]!.threadNanoseconds += cpu
            }
            let (sampleClass, label) = reading.classified(on: architecture)
            event.contribution = Contribution(
                threadSeconds: threadSeconds, cpuSeconds: Double(cpu) / 1e9, runQueueSeconds: Double(queue) / 1e9,
                sample: sampleClass, call: sampleClass != .running ? label : nil,
                peer: sampleClass != .running ? reading.socket?.peerLabel : nil)
        }
        for (key, thread) in before where next[key] == nil {
            parts[thread.part].threadsExited += 1
            count(thread)
        }
        threads = next
        hold(PendingSweep(interval: interval, end: end, events: events))
    }

    /// Records `reading` in `next`, the threads of the sweep being added: its counters as the
    /// first reading of the sweep has them, its part by its name now, its status counts. A
    /// thread whose part changed takes its held-back samples along.
    private mutating func note(_ reading: ThreadReading, at time: Double, into next: inout [ThreadKey: LiveThread]) {
        let key = ThreadKey(reading)
        let part = self.part(pid: reading.pid, comm: reading.comm)
        var thread =
            next[key] ?? threads[key].map {
                var carried = $0
                carried.cpuNanoseconds = reading.cpuNanoseconds
                carried.runQueueNanoseconds = reading.runQueueNanoseconds
                return carried
            }
            ?? LiveThread(
                part: part, cpuNanoseconds: reading.cpuNanoseconds, runQueueNanoseconds: reading.runQueueNanoseconds)
        if thread.part != part {
            for sweep in pending.indices {
                for index in pending[sweep].events.indices where pending[sweep].events[index].key == key {
                    pending[sweep].events[index].part = part
                }
            }
            thread.part = part
        }
        if let switches = reading.switches {
            let entry = SwitchCount(time: time, voluntary: switches.voluntary, involuntary: switches.involuntary)
            if thread.firstSwitches == nil { thread.firstSwitches = entry }
            thread.lastSwitches = entry
        }
        next[key] = thread
    }

    /// The part of a thread named `comm` in process `pid`, made on first need.
    private mutating func part(pid: Int32, comm: String) -> Int {
        if let index = partOfName[pid]?[comm] { return index }
        let key = PartKey(pid: pid, name: grouping.pool(of: comm, title: titles[pid]))
        let index: Int
        if let known = partIndex[key] {
            index = known
        } else {
            index = parts.count
            parts.append(PoolAccumulator())
            partKeys.append(key)
            partIndex[key] = index
            representative.append(comm)
        }
        partOfName[pid, default: [:]][comm] = index
        namesCached += 1
        return index
    }

    /// Counts a thread that is gone (or, at the end, still alive) in its last part; with
    /// `switches`, its context switches too.
    private mutating func count(_ thread: LiveThread, switches: Bool = true) {
        parts[thread.part].threadsSeen += 1
        if thread.started { parts[thread.part].threadsStarted += 1 }
        if switches, let first = thread.firstSwitches, let last = thread.lastSwitches, last.time > first.time {
            parts[thread.part].addSwitches(
                seconds: last.time - first.time,
                voluntary: Double(last.voluntary &- min(last.voluntary, first.voluntary)),
                involuntary: Double(last.involuntary &- min(last.involuntary, first.involuntary)))
        }
    }

    private mutating func hold(_ sweep: PendingSweep) {
        pending.append(sweep)
        if pending.count > Self.keptSweeps { commit(pending.removeFirst()) }
    }

    /// Adds a held-back sweep's samples to their parts.
    private mutating func commit(_ sweep: PendingSweep) {
        var alive: [Int: Int] = [:]
        for event in sweep.events {
            alive[event.part, default: 0] += 1
            parts[event.part].see(event.comm, pid: event.key.pid)
            guard let contribution = event.contribution else { continue }
            let c = contribution
            parts[event.part].add(
                atom: (sweep.interval - 1) / atomWidth, pid: event.key.pid, threadSeconds: c.threadSeconds,
                cpuSeconds: c.cpuSeconds, runQueueSeconds: c.runQueueSeconds, sample: c.sample)
            parts[event.part].addToSlices(
                start: sweep.end - c.threadSeconds, end: sweep.end, sliceSeconds: sliceSeconds,
                cpuSeconds: c.cpuSeconds, runQueueSeconds: c.runQueueSeconds, sample: c.sample)
            if let call = c.call { parts[event.part].count(call: call, peer: c.peer) }
        }
        var byName: [String: Int] = [:], byTitle: [TitledName: Int] = [:]
        for (part, count) in alive {
            let key = partKeys[part]
            byName[key.name, default: 0] += count
            byTitle[TitledName(name: key.name, titleKey: titleKeys[key.pid] ?? nil), default: 0] += count
        }
        for (name, count) in byName { aliveByName[name] = max(aliveByName[name] ?? 0, count) }
        for (name, count) in byTitle { aliveByTitle[name] = max(aliveByTitle[name] ?? 0, count) }
    }

    /// The estimate of every pool, from what was added: `header` as the sampler ended it,
    /// `processes` as they stand at the end (their titles settle the pools).
    package func observation(
        header: ObservationHeader, processes: [ProcessFacts], settings: EstimatorSettings
    ) -> Observation {
        var state = self
        while !state.pending.isEmpty { state.commit(state.pending.removeFirst()) }
        let live = state.threads.sorted { ($0.key.pid, $0.key.tid) < ($1.key.pid, $1.key.tid) }
        for (_, thread) in live { state.count(thread, switches: false) }

        let facts = Dictionary(processes.map { ($0.pid, $0) }, uniquingKeysWith: { _, last in last })
        var finalTitles = state.titles
        for (pid, process) in facts { finalTitles[pid] = process.title }
        // A part emptied by a rename (its thread took its samples to its new name) is no pool.
        let used = state.parts.indices.filter { !state.parts[$0].pids.isEmpty }
        let named = Dictionary(
            uniqueKeysWithValues: used.map {
                (ThreadKey(pid: state.partKeys[$0].pid, tid: Int32($0)), state.representative[$0])
            })
        let poolOf = state.grouping.pools(of: named, titles: finalTitles)
        let poolOfPart = { (part: Int) in poolOf[ThreadKey(pid: state.partKeys[part].pid, tid: Int32(part))]! }
        var pools: [String: PoolAccumulator] = [:]
        var partsOf: [String: [Int]] = [:]
        for part in used {
            let name = poolOfPart(part)
            partsOf[name, default: []].append(part)
            if pools[name] == nil { pools[name] = state.parts[part] } else { pools[name]!.merge(state.parts[part]) }
        }
        // The most threads alive at once: counted per provisional name, and per title within it
        // for a name the titles split.
        for (name, members) in partsOf {
            var most = 0
            for provisional in Set(members.map { state.partKeys[$0].name }) {
                let all = used.filter { state.partKeys[$0].name == provisional }
                if Set(all).isSubset(of: members) {
                    most = max(most, state.aliveByName[provisional] ?? 0)
                } else {
                    for part in members where state.partKeys[part].name == provisional {
                        let titled = TitledName(
                            name: provisional,
                            titleKey: state.titles[state.partKeys[part].pid].flatMap(PoolGrouping.titleKey))
                        most = max(most, state.aliveByTitle[titled] ?? 0)
                    }
                }
            }
            pools[name]!.mostAlive = most
        }
        // In thread order: a sum in dictionary order would change its last bits from run to run.
        for (_, thread) in live {
            guard let first = thread.firstSwitches, let last = thread.lastSwitches, last.time > first.time else {
                continue
            }
            pools[poolOfPart(thread.part)]?.addSwitches(
                seconds: last.time - first.time,
                voluntary: Double(last.voluntary &- min(last.voluntary, first.voluntary)),
                involuntary: Double(last.involuntary &- min(last.involuntary, first.involuntary)))
        }

        let duration = state.durationSeconds
        let intervals = max(0, state.sweepCount - 1)
        let grid = ObservationGrid(
            sliceSeconds: state.sliceSeconds,
            // A last sliver (the final sweep a moment past a whole second) joins the slice before it.
            sliceCount: duration > 0 ? max(1, Int((duration / state.sliceSeconds - 0.1).rounded(.up))) : 0,
            batchCount: intervals >= 10 ? max(2, min(settings.batches, intervals / 5)) : 1, atomEnds: state.atomEnds)
        let estimates = pools.map { name, pool in
            pool.estimate(
                name: name, durationSeconds: duration, grid: grid, cores: header.cores, settings: settings,
                processes: facts)
        }
        // CPU first: it is measured exactly, while a thread blocked in IO may be a worker
        // waiting inside a task or a helper waiting for requests.
        var sorted = estimates.sorted { a, b in a.cpuCores != b.cpuCores ? a.cpuCores > b.cpuCores : a.name < b.name }
        if let rate = settings.throughputPerSecond,
            let index = sorted.firstIndex(where: { $0.name == (settings.throughputPool ?? sorted[0].name) })
        {
            sorted[index].perTask = TaskEstimate.little(
                for: sorted[index], throughputPerSecond: rate, latencySeconds: settings.latencySeconds,
                parallelism: Double(sorted[index].parallelism ?? header.cores.effective),
                utilization: settings.targetUtilization)
            sorted[index].verdict = PoolVerdict.decide(sorted[index])
        }
        var observation = Observation(
            target: header.target, durationSeconds: duration, cores: header.cores, settings: settings,
            sampler: header.sampler, limits: header.limits, cpuPressureSomePercent: header.cpuPressureSomePercent,
            pools: sorted)
        observation.plannedSeconds = header.plannedSeconds
        observation.interrupted = header.interrupted == true ? true : nil
        observation.commandEndedSeconds = header.commandEndedSeconds
        let unmatched = state.grouping.unmatchedRules(of: named, titles: finalTitles)
        observation.unmatchedGroupRules = unmatched.isEmpty ? nil : unmatched
        if !state.processCPU.isEmpty && duration > 0 {
            // stat's utime and stime are each cut to whole ticks: a difference of two ticks or
            // less per process is rounding, not a thread.
            let rounding = 2 * 1e9 * startTolerance
            var total = 0.0, unseen = 0.0
            for (_, process) in state.processCPU.sorted(by: { $0.key < $1.key }) {
                let delta = Double(process.last &- min(process.last, process.first))
                total += delta
                let missing = delta - Double(process.threadNanoseconds)
                if missing > rounding { unseen += missing }
            }
            observation.processCPUCores = total / 1e9 / duration
            observation.unseenThreadCPUCores = unseen / 1e9 / duration
        }
        return observation
    }
}
