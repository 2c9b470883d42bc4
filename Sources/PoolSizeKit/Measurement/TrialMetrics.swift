import PoolSizeModel

/// The numbers a trial yields, derived from its raw measurement.
package struct TrialMetrics: Equatable, Sendable {
    /// Length of the measurement window.
    package var windowSeconds: Double
    /// Tasks that failed among those finished in the window; they count in no other figure.
    package var errors: Int = 0
    /// Why the first failed tasks of the trial failed.
    package var failureExamples: [String] = []
    /// Tasks that succeeded in the window, each weighted by the fraction of its body inside the window. Counting
    /// fractions removes the edge error of counting whole completions: with N tasks started
    /// together, completions arrive in bursts, and a window edge landing just before or after a
    /// burst would swing a whole-task count by N.
    package var tasks: Double
    /// Tasks per second in the window.
    package var throughputPerSecond: Double
    /// Means over tasks that finished inside the window.
    package var cpuMicrosecondsPerTask: Double
    /// Mean task wall time minus CPU time, µs.
    package var waitMicrosecondsPerTask: Double
    /// Σ wait / Σ CPU over those tasks (a ratio of means, not a mean of ratios).
    package var waitCPURatio: Double
    /// Per-task W/C of those tasks.
    package var perTaskWaitCPURatios: [Double]
    /// W and C of each of those tasks in µs, paired, for the ratio's standard error.
    package var perTaskWaitMicroseconds: [Double]
    /// CPU time of each of those tasks in µs, paired with `perTaskWaitMicroseconds`.
    package var perTaskCPUMicroseconds: [Double]
    /// Process CPU time in the window over window × cores.
    package var utilization: Double
    /// Most tasks seen running at once.
    package var peakConcurrency: Int
    /// Distinct OS threads that ran tasks.
    package var distinctThreads: Int
    /// Lowest nice value seen on a worker (a tier that did not take effect shows here).
    package var effectiveNice: Int
    /// Voluntary context switches in the window.
    package var voluntaryContextSwitches: Int
    /// Involuntary context switches in the window.
    package var involuntaryContextSwitches: Int
    /// Peak resident set size so far, KiB.
    package var maxRSSKilobytes: Int
    /// OS threads in the process at the window's end; nil where unknown.
    package var processThreads: Int?
    /// Busy CPU of everything but this process in the window, as a share of `cores`.
    package var otherLoad: Double
    /// Submit → completion and start → completion of tasks finished in the window, in µs.
    package var latency: LatencyPercentiles
    /// Start-to-completion latency of the tasks finished in the window, µs.
    package var execution: LatencyPercentiles
    /// Rate offered and carried, backlog and stability of an open-loop trial; nil for the closed
    /// loop. In an open-loop trial `latency` counts from each task's intended arrival, over the
    /// tasks that arrived in the window.
    package var openLoop: OpenLoopFigures?
    /// The sizes a pool that sizes itself chose, over the whole trial; empty for a fixed size.
    package var sizeSteps: [SizeStep] = []

    /// Metrics stated directly, for a `TrialMeasuring` that scripts them (tests, replays).
    /// Per-task figures repeat the means `tasks` times, rounded down, at most 1,000.
    package init(
        windowSeconds: Double, throughputPerSecond: Double, cpuMicrosecondsPerTask: Double,
        waitMicrosecondsPerTask: Double,
        utilization: Double, peakConcurrency: Int, threads: Int, otherLoad: Double = 0, effectiveNice: Int = 0,
        latency: LatencyPercentiles = LatencyPercentiles(), execution: LatencyPercentiles = LatencyPercentiles()
    ) {
        self.windowSeconds = windowSeconds
        tasks = throughputPerSecond * windowSeconds
        self.throughputPerSecond = throughputPerSecond
        self.cpuMicrosecondsPerTask = cpuMicrosecondsPerTask
        self.waitMicrosecondsPerTask = waitMicrosecondsPerTask
        waitCPURatio = cpuMicrosecondsPerTask > 0 ? waitMicrosecondsPerTask / cpuMicrosecondsPerTask : .nan
        let count = min(1_000, max(0, Int(tasks)))
        perTaskWaitCPURatios = Array(repeating: waitCPURatio, count: count)
        perTaskWaitMicroseconds = Array(repeating: waitMicrosecondsPerTask, count: count)
        perTaskCPUMicroseconds = Array(repeating: cpuMicrosecondsPerTask, count: count)
        self.utilization = utilization
        self.peakConcurrency = peakConcurrency
        distinctThreads = threads
        self.effectiveNice = effectiveNice
        voluntaryContextSwitches = 0
        involuntaryContextSwitches = 0
        maxRSSKilobytes = 0
        processThreads = nil
        self.otherLoad = otherLoad
        self.latency = latency
        self.execution = execution
    }

    /// Derives the metrics from a trial's raw measurement, on `cores` cores.
    package init(_ m: TrialMeasurement, cores: Int) {
        let start = m.windowStart, end = max(m.windowEnd, m.windowStart + 1)
        windowSeconds = Double(end - start) / 1e9
        var weighted = 0.0
        var cpu: UInt64 = 0, wait: UInt64 = 0, finished = 0
        var ratios: [Double] = [], waits: [Double] = [], cpus: [Double] = []
        for s in m.samples {
            // A failed task is never throughput, and its C and W (a refused connection returns
            // at once) are not the task's: it is counted as an error and nothing else.
            if s.failed {
                if s.ended >= start && s.ended <= end { errors += 1 }
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
        tasks = weighted
        failureExamples = m.failureExamples
        throughputPerSecond = weighted / windowSeconds
        cpuMicrosecondsPerTask = finished > 0 ? Double(cpu) / Double(finished) / 1_000 : 0
        waitMicrosecondsPerTask = finished > 0 ? Double(wait) / Double(finished) / 1_000 : 0
        waitCPURatio = cpu > 0 ? Double(wait) / Double(cpu) : 0
        perTaskWaitCPURatios = ratios
        perTaskWaitMicroseconds = waits
        perTaskCPUMicroseconds = cpus
        let processCPU =
            m.usageAtEnd.cpuNanoseconds >= m.usageAtStart.cpuNanoseconds
            ? m.usageAtEnd.cpuNanoseconds - m.usageAtStart.cpuNanoseconds : 0
        utilization = Double(processCPU) / 1e9 / (windowSeconds * Double(max(cores, 1)))
        peakConcurrency = m.peakConcurrency
        distinctThreads = Set(m.samples.map(\.thread)).count
        effectiveNice = Int(m.samples.map(\.nice).min() ?? 0)
        voluntaryContextSwitches = m.usageAtEnd.voluntaryContextSwitches - m.usageAtStart.voluntaryContextSwitches
        involuntaryContextSwitches = m.usageAtEnd.involuntaryContextSwitches - m.usageAtStart.involuntaryContextSwitches
        maxRSSKilobytes = m.usageAtEnd.maxRSSKilobytes
        processThreads = m.processThreads
        if let busy0 = m.machineBusyAtStart, let busy1 = m.machineBusyAtEnd, busy1 >= busy0 {
            otherLoad = max(
                0, (Double(busy1 - busy0) - Double(processCPU)) / 1e9 / (windowSeconds * Double(max(cores, 1))))
        } else {
            otherLoad = 0
        }
        let finishedSamples = m.samples.filter { !$0.failed && $0.ended >= start && $0.ended <= end }
        latency = LatencyRecorder.percentiles(finishedSamples.map { $0.ended &- $0.submitted })
        execution = LatencyRecorder.percentiles(finishedSamples.map { $0.ended &- $0.started })
        sizeSteps = m.sizeSteps
        if let raw = m.openLoop {
            let offered = Double(raw.arrivalsInWindow) / windowSeconds
            // Tasks in service on average (Little's law on the service alone): what a pool that
            // keeps up holds at the window's edges, for the stability verdict's allowance.
            let serviceSeconds =
                finishedSamples.isEmpty
                ? 0
                : Double(finishedSamples.reduce(UInt64(0)) { $0 &+ ($1.ended &- $1.started) })
                    / Double(finishedSamples.count) / 1e9
            openLoop = OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: raw.ratePerSecond), offeredPerSecond: offered,
                achievedPerSecond: throughputPerSecond,
                backlogMean: raw.backlog.isEmpty ? 0 : Double(raw.backlog.reduce(0, +)) / Double(raw.backlog.count),
                backlogMax: raw.backlog.max() ?? 0, backlogGrowth: raw.backlogGrowth,
                stable: OpenLoopFigures.isStable(
                    offered: offered, achieved: throughputPerSecond, growth: raw.backlogGrowth, poolSize: m.poolSize,
                    arrivalsInWindow: raw.arrivalsInWindow, busyQueues: offered * serviceSeconds),
                unfinished: raw.unfinished,
                dispatchLagP99Microseconds: LatencyRecorder.percentiles(raw.dispatchLags).p99)
            latency = LatencyRecorder.percentiles(raw.latencies)
        }
    }
}
