import PoolSizeStats

/// Turns an observation's sweeps into per-pool estimates. Pure: no /proc, no clock, so it is
/// tested on recordings of real processes (Tests/Fixtures/observe/) and on hand-made sweeps.
///
/// For each pair of consecutive sweeps every thread present in both contributes the time
/// between them and its schedstat deltas (C and Q exactly); a thread that started in between
/// contributes from its start time (stat field 22) with all its counters; a thread gone from
/// the later sweep contributes nothing more. The sample at the later sweep says what the thread
/// was doing. Off-CPU time (thread time − C − Q) is split by the blocked samples' classes.
/// Intervals come from batch means: the observation cut into equal sub-intervals, each
/// estimated alone (Law & Kelton, *Simulation Modeling and Analysis*, §9.5.3).
package enum ObservationEstimator {
    /// The most slices a pool's timeline has: a second each up to an hour, longer beyond.
    package static let maximumSlices = 3600

    /// The length of a timeline slice for an observation of `durationSeconds`: one second, or
    /// the whole seconds that keep the slices within `maximumSlices`.
    package static func sliceSeconds(durationSeconds: Double) -> Double {
        max(1, (durationSeconds / Double(maximumSlices)).rounded(.up))
    }

    /// The estimate of every pool in `record`.
    package static func estimate(_ record: ObservationRecord, settings: EstimatorSettings) -> Observation {
        let header = record.header
        let grouping = PoolGrouping(rules: settings.groupRules)
        // Zombie and dead threads hold no time; a thread that renames itself (the JVM names
        // threads after they start) belongs to the pool of its last name.
        let sweeps = record.sweeps.map { sweep in
            SampleSweep(
                timeSeconds: sweep.timeSeconds, readings: sweep.readings.filter { $0.state != "Z" && $0.state != "X" })
        }
        var lastName: [ThreadKey: String] = [:]
        for sweep in sweeps { for reading in sweep.readings { lastName[ThreadKey(reading)] = reading.comm } }
        let processes = Dictionary(record.processes.map { ($0.pid, $0) }, uniquingKeysWith: { _, last in last })
        let poolOf = grouping.pools(of: lastName, titles: processes.mapValues(\.title))

        let duration = record.durationSeconds
        let intervals = max(0, sweeps.count - 1)
        let batchCount = intervals >= 10 ? max(2, min(settings.batches, intervals / 5)) : 1
        let startTolerance = 1 / header.clockTicksPerSecond
        let sliceSeconds = Self.sliceSeconds(durationSeconds: duration)
        // A last sliver (the final sweep a moment past a whole second) joins the slice before it.
        let sliceCount = duration > 0 ? max(1, Int((duration / sliceSeconds - 0.1).rounded(.up))) : 0
        let empty = PoolAccumulator(batches: batchCount, slices: sliceCount)
        var pools: [String: PoolAccumulator] = [:]

        if let first = sweeps.first {
            for reading in first.readings {
                pools[poolOf[ThreadKey(reading)]!, default: empty].see(reading, at: first.timeSeconds)
            }
            countAlive(first, poolOf: poolOf, into: &pools, empty: empty)
        }
        for index in sweeps.indices.dropFirst() {
            let previous = sweeps[index - 1], current = sweeps[index]
            let before = Dictionary(previous.readings.map { (ThreadKey($0), $0) }, uniquingKeysWith: { a, _ in a })
            let interval = current.timeSeconds - previous.timeSeconds
            let batch =
                duration > 0
                ? min(
                    batchCount - 1, Int((current.timeSeconds - sweeps[0].timeSeconds) / duration * Double(batchCount)))
                : 0
            var present = Set<ThreadKey>()
            for reading in current.readings {
                let key = ThreadKey(reading)
                present.insert(key)
                var pool = pools[poolOf[key]!, default: empty]
                defer { pools[poolOf[key]!] = pool }
                pool.see(reading, at: current.timeSeconds)
                let threadSeconds: Double, cpu: UInt64, queue: UInt64
                if let earlier = before[key] {
                    threadSeconds = interval
                    cpu = reading.cpuNanoseconds &- min(reading.cpuNanoseconds, earlier.cpuNanoseconds)
                    queue =
                        (reading.runQueueNanoseconds ?? 0)
                        &- min(reading.runQueueNanoseconds ?? 0, earlier.runQueueNanoseconds ?? 0)
                } else if reading.startSeconds >= previous.timeSeconds - startTolerance {
                    // Started in between: everything it has counted is from this interval.
                    pool.started.insert(key)
                    threadSeconds = max(0, current.timeSeconds - max(previous.timeSeconds, reading.startSeconds))
                    cpu = reading.cpuNanoseconds
                    queue = reading.runQueueNanoseconds ?? 0
                } else {
                    // Seen late (a child process found by a rescan): this reading is its baseline.
                    continue
                }
                let (sampleClass, label) = reading.classified(on: header.architecture)
                pool.add(
                    batch: batch, pid: reading.pid, threadSeconds: threadSeconds, cpuSeconds: Double(cpu) / 1e9,
                    runQueueSeconds: Double(queue) / 1e9, sample: sampleClass)
                let end = current.timeSeconds - sweeps[0].timeSeconds
                pool.addToSlices(
                    start: end - threadSeconds, end: end, sliceSeconds: sliceSeconds,
                    cpuSeconds: Double(cpu) / 1e9, runQueueSeconds: Double(queue) / 1e9, sample: sampleClass)
                if sampleClass != .running {
                    pool.calls[label, default: 0] += 1
                    if let socket = reading.socket { pool.peers[socket.peerLabel, default: 0] += 1 }
                }
            }
            for key in before.keys where !present.contains(key) { pools[poolOf[key]!]?.exited.insert(key) }
            countAlive(current, poolOf: poolOf, into: &pools, empty: empty)
        }

        let estimates = pools.map { name, pool in
            pool.estimate(
                name: name, durationSeconds: duration, sliceSeconds: sliceSeconds, cores: header.cores,
                settings: settings, processes: processes)
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
            sampler: header.sampler,
            limits: header.limits, cpuPressureSomePercent: header.cpuPressureSomePercent, pools: sorted)
        observation.plannedSeconds = header.plannedSeconds
        observation.interrupted = header.interrupted == true ? true : nil
        return observation
    }

    private static func countAlive(
        _ sweep: SampleSweep, poolOf: [ThreadKey: String], into pools: inout [String: PoolAccumulator],
        empty: PoolAccumulator
    ) {
        var alive: [String: Int] = [:]
        for reading in sweep.readings { alive[poolOf[ThreadKey(reading)]!, default: 0] += 1 }
        for (name, count) in alive { pools[name, default: empty].mostAlive = max(pools[name]?.mostAlive ?? 0, count) }
    }
}

/// A thread, across processes (`--children`).
struct ThreadKey: Hashable {
    let pid: Int32
    let tid: Int32

    init(_ reading: ThreadReading) {
        pid = reading.pid
        tid = reading.tid
    }

    init(pid: Int32, tid: Int32) {
        self.pid = pid
        self.tid = tid
    }
}
