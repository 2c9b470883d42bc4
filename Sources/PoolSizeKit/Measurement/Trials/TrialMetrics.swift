import PoolSizeModel

/// The numbers a trial yields, derived from its raw measurement once, into the fields a
/// `TrialRecord` carries (`figures`, read through as `metrics.throughputPerSecond`), plus what
/// only the sweep's statistics read: each task's W and C, and why tasks failed.
@dynamicMemberLookup
package struct TrialMetrics: Equatable, Sendable {
    /// The trial's figures in its record's own fields. Who ran it (the run, the workload, the
    /// combination, the repetition, the integrity check) is the sweep's to fill in
    /// (`TrialRecord(plan:combination:poolSize:repetition:metrics:integrity:)`); here they are
    /// blank. In an open-loop trial `latency` counts from each task's intended arrival, over the
    /// tasks that arrived in the window.
    package var figures: TrialRecord
    /// Why the first failed tasks of the trial failed.
    package var failureExamples: [String] = []
    /// What the measurer noticed about a trial that stays valid, one line each, for the user
    /// to hear of while the sweep runs (`SweepObserver.sweepNoted`).
    package var notes: [String] = []
    /// Per-task W/C of the tasks that finished in the window.
    package var perTaskWaitCPURatios: [Double]
    /// W and C of each of those tasks in µs, paired, for the ratio's standard error.
    package var perTaskWaitMicroseconds: [Double]
    /// CPU time of each of those tasks in µs, paired with `perTaskWaitMicroseconds`.
    package var perTaskCPUMicroseconds: [Double]
    /// A server's low-load round: the pool whose CPU `perTaskCPUMicroseconds` holds; nil when
    /// it is the whole server's.
    package var servingPool: String?
    /// With `servingPool`: the whole server's CPU per request in each slice, µs.
    package var processCPUMicroseconds: [Double] = []

    /// A figure of the record, by its name there.
    package subscript<T>(dynamicMember field: WritableKeyPath<TrialRecord, T>) -> T {
        get { figures[keyPath: field] }
        set { figures[keyPath: field] = newValue }
    }

    /// A figure the record derives (its `openLoop`), by its name there.
    package subscript<T>(dynamicMember field: KeyPath<TrialRecord, T>) -> T { figures[keyPath: field] }

    /// A record holding figures only, for a trial on a pool of `poolSize`.
    static func blank(poolSize: Int) -> TrialRecord {
        TrialRecord(
            runID: "", workload: "", pool: .queuePool, qos: .default, primitive: .none, poolSize: poolSize,
            repetition: 0, tasks: 0, wallSeconds: 0, throughputPerSecond: 0, cpuMicrosecondsPerTask: 0,
            waitMicrosecondsPerTask: 0, waitCPURatio: 0, utilization: 0, peakConcurrency: 0, threads: 0,
            effectiveNice: 0, integrity: .notApplicable)
    }

    /// Metrics stated directly, for a `TrialMeasuring` that scripts them (tests, replays).
    /// Per-task figures repeat the means `tasks` times, rounded down, at most 1,000.
    package init(
        windowSeconds: Double, throughputPerSecond: Double, cpuMicrosecondsPerTask: Double,
        waitMicrosecondsPerTask: Double,
        utilization: Double, peakConcurrency: Int, threads: Int, otherLoad: Double = 0, effectiveNice: Int = 0,
        latency: LatencyPercentiles = LatencyPercentiles(), execution: LatencyPercentiles = LatencyPercentiles()
    ) {
        let tasks = throughputPerSecond * windowSeconds
        let ratio = cpuMicrosecondsPerTask > 0 ? waitMicrosecondsPerTask / cpuMicrosecondsPerTask : .nan
        figures = Self.blank(poolSize: 0)
        figures.tasks = tasks
        figures.wallSeconds = windowSeconds
        figures.throughputPerSecond = throughputPerSecond
        figures.cpuMicrosecondsPerTask = cpuMicrosecondsPerTask
        figures.waitMicrosecondsPerTask = waitMicrosecondsPerTask
        figures.waitCPURatio = ratio
        figures.utilization = utilization
        figures.peakConcurrency = peakConcurrency
        figures.threads = threads
        figures.effectiveNice = effectiveNice
        figures.otherLoad = otherLoad
        figures.latency = latency
        figures.execution = execution
        let count = tasks.isFinite ? Int(min(1_000, max(0, tasks))) : 0
        perTaskWaitCPURatios = Array(repeating: ratio, count: count)
        perTaskWaitMicroseconds = Array(repeating: waitMicrosecondsPerTask, count: count)
        perTaskCPUMicroseconds = Array(repeating: cpuMicrosecondsPerTask, count: count)
    }

    /// Derives the metrics from a trial's raw measurement, on `cores` cores.
    package init(_ m: TrialMeasurement, cores: Int) {
        let start = m.windowStart, end = max(m.windowEnd, m.windowStart + 1)
        let windowSeconds = Double(end - start) / 1e9
        var r = Self.blank(poolSize: m.poolSize)
        r.wallSeconds = windowSeconds
        var weighted = 0.0
        var cpu: UInt64 = 0, wait: UInt64 = 0, finished = 0
        var ratios: [Double] = [], waits: [Double] = [], cpus: [Double] = []
        for s in m.samples {
            // A failed task is never throughput, and its C and W (a refused connection returns
            // at once) are not the task's: it is counted as an error and nothing else.
            if s.failed {
                if s.ended >= start && s.ended <= end { r.errors += 1 }
                continue
            }
            let overlap = Double(min(s.ended, end)) - Double(max(s.started, start))
            if s.ended > s.started {
                weighted += max(0, overlap) / Double(s.ended - s.started)
            } else if s.ended >= start && s.ended <= end {
                weighted += 1
            }
            if s.ended >= start && s.ended <= end {
                finished += 1
                cpu += s.cpuNanoseconds
                wait += s.waitNanoseconds
                waits.append(Double(s.waitNanoseconds) / 1_000)
                cpus.append(Double(s.cpuNanoseconds) / 1_000)
                if s.cpuNanoseconds > 0 { ratios.append(Double(s.waitNanoseconds) / Double(s.cpuNanoseconds)) }
            }
        }
        r.tasks = weighted
        failureExamples = m.failureExamples
        let throughputPerSecond = weighted / windowSeconds
        r.throughputPerSecond = throughputPerSecond
        r.cpuMicrosecondsPerTask = finished > 0 ? Double(cpu) / Double(finished) / 1_000 : 0
        r.waitMicrosecondsPerTask = finished > 0 ? Double(wait) / Double(finished) / 1_000 : 0
        r.waitCPURatio = cpu > 0 ? Double(wait) / Double(cpu) : 0
        perTaskWaitCPURatios = ratios
        perTaskWaitMicroseconds = waits
        perTaskCPUMicroseconds = cpus
        let processCPU =
            m.usageAtEnd.cpuNanoseconds >= m.usageAtStart.cpuNanoseconds
            ? m.usageAtEnd.cpuNanoseconds - m.usageAtStart.cpuNanoseconds : 0
        r.utilization = Double(processCPU) / 1e9 / (windowSeconds * Double(max(cores, 1)))
        r.peakConcurrency = m.peakConcurrency
        r.threads = Set(m.samples.map(\.thread)).count
        r.effectiveNice = Int(m.samples.map(\.nice).min() ?? 0)
        r.voluntaryContextSwitches = m.usageAtEnd.voluntaryContextSwitches - m.usageAtStart.voluntaryContextSwitches
        r.involuntaryContextSwitches =
            m.usageAtEnd.involuntaryContextSwitches - m.usageAtStart.involuntaryContextSwitches
        r.maxRSSKilobytes = m.usageAtEnd.maxRSSKilobytes
        r.processThreads = m.processThreads ?? 0
        if let busy0 = m.machineBusyAtStart, let busy1 = m.machineBusyAtEnd, busy1 >= busy0 {
            // A local database's backends serving the pool's connections are the trial's own
            // load, not other processes'.
            let watchedCPU = (m.watched.database?.backendCPUSeconds ?? 0) * 1e9
            r.otherLoad = max(
                0,
                (Double(busy1 - busy0) - Double(processCPU) - watchedCPU) / 1e9
                    / (windowSeconds * Double(max(cores, 1))))
        }
        let finishedSamples = m.samples.filter { !$0.failed && $0.ended >= start && $0.ended <= end }
        r.latency = LatencyRecorder.percentiles(finishedSamples.map { $0.ended &- $0.submitted })
        r.execution = LatencyRecorder.percentiles(finishedSamples.map { $0.ended &- $0.started })
        r.sizeSteps = m.sizeSteps
        r.watched = m.watched
        r.windowEnd = m.windowEnded
        if case .closed = m.loop {
            r.throughputMargin =
                m.knownMargin
                ?? TrialStopRule.estimate(ends: finishedSamples.map(\.ended), start: start, end: end)?.relativeHalfWidth
        }
        m.loop.record(
            into: &r, finished: finishedSamples, windowSeconds: windowSeconds, throughputPerSecond: throughputPerSecond)
        figures = r
    }
}
