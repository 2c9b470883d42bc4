/// One measured trial: a pool of one kind and size, running one workload for one repetition.
/// Field names carry their units (docs/conventions.md); the CSV writer maps them to columns.
public struct TrialRecord: Equatable, Sendable, Codable {
    /// The run this trial belongs to.
    public var runID: String
    /// The workload's name.
    public var workload: String
    /// The pool kind.
    public var pool: PoolKind
    /// The QoS tier.
    public var qos: QoSTier
    /// The primitive guarding the critical section.
    public var primitive: PrimitiveKind
    /// Queues (threads) in the pool.
    public var poolSize: Int
    /// Repetition number at this size, from 1.
    public var repetition: Int
    /// Tasks that succeeded in the measurement window (tasks straddling its edges count by the
    /// fraction of their run inside it, so this can be fractional); failed ones are `errors`.
    public var tasks: Double
    /// Length of the measurement window.
    public var wallSeconds: Double
    /// Tasks per second in the window.
    public var throughputPerSecond: Double
    /// Mean thread CPU time per task (CLOCK_THREAD_CPUTIME_ID across the task body).
    public var cpuMicrosecondsPerTask: Double
    /// Mean task wall time minus its CPU time. Includes run-queue delay when oversubscribed.
    public var waitMicrosecondsPerTask: Double
    /// W/C under this load (Σ wait / Σ CPU over the window's tasks).
    public var waitCPURatio: Double
    /// Process CPU time (user + system) over window × cores.
    public var utilization: Double
    /// Most tasks seen executing at the same instant.
    public var peakConcurrency: Int
    /// Distinct OS threads that ran tasks.
    public var threads: Int
    /// Nice value observed inside the workers (the lowest seen when they disagree).
    public var effectiveNice: Int
    /// `ok`, `violated`, or `n/a` when the trial has no critical section.
    package var integrity: Integrity
    /// Critical sections entered (0 without a primitive).
    public var criticalSections: Int = 0
    /// Task latency from submission to completion (queueing + execution), HDR-recorded.
    public var latency = LatencyPercentiles()
    /// Execution alone: start of the task body to its end.
    public var execution = LatencyPercentiles()
    /// Process context switches during the window (getrusage).
    public var voluntaryContextSwitches: Int = 0
    /// Involuntary context switches (preemption) during the window.
    public var involuntaryContextSwitches: Int = 0
    /// Peak resident set size of the process so far (ru_maxrss).
    public var maxRSSKilobytes: Int = 0
    /// OS threads in the process at the end of the window.
    public var processThreads: Int = 0
    /// CPU used by everything else on the machine during the window, as a share of `cores`:
    /// a trial measured while something else was busy shows it here.
    public var otherLoad: Double = 0
    /// Why the trial's figures cannot be true (`TrialValidity`); nil for a valid trial.
    public var invalidReason: String?
    /// Tasks of the window that failed (a command's non-zero exit, a signal, a timeout).
    public var errors: Int = 0
    /// The open-loop figures of the trial (`--arrival-rate`); nil for a closed-loop trial.
    public var openLoop: OpenLoopFigures?
    /// The sizes a pool that sizes itself (`--pool adaptive`) chose over the trial, from its
    /// start; empty for a pool of fixed size, whose size is `poolSize` throughout.
    package var sizeSteps: [SizeStep] = []

    /// Failed tasks as a share of the window's tasks, failed and succeeded (at most 1).
    public var failureShare: Double {
        let all = tasks + Double(errors)
        return all > 0 ? Double(errors) / all : 0
    }

    /// Whether tasks arrived at a set rate (open loop) rather than one per completion.
    public var isOpenLoop: Bool { openLoop != nil }
    /// The offered arrival rate of an open-loop trial, tasks/s; nil for a closed-loop one.
    public var arrivalRate: ArrivalRate? { openLoop?.arrivalRate }

    /// A record from its figures.
    package init(
        runID: String, workload: String, pool: PoolKind, qos: QoSTier, primitive: PrimitiveKind,
        poolSize: Int, repetition: Int, tasks: Double, wallSeconds: Double, throughputPerSecond: Double,
        cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double, waitCPURatio: Double,
        utilization: Double, peakConcurrency: Int, threads: Int, effectiveNice: Int, integrity: Integrity,
        criticalSections: Int = 0, latency: LatencyPercentiles = LatencyPercentiles(),
        execution: LatencyPercentiles = LatencyPercentiles(),
        voluntaryContextSwitches: Int = 0, involuntaryContextSwitches: Int = 0, maxRSSKilobytes: Int = 0,
        processThreads: Int = 0,
        otherLoad: Double = 0, invalidReason: String? = nil, errors: Int = 0
    ) {
        self.runID = runID
        self.workload = workload
        self.pool = pool
        self.qos = qos
        self.primitive = primitive
        self.poolSize = poolSize
        self.repetition = repetition
        self.tasks = tasks
        self.wallSeconds = wallSeconds
        self.throughputPerSecond = throughputPerSecond
        self.cpuMicrosecondsPerTask = cpuMicrosecondsPerTask
        self.waitMicrosecondsPerTask = waitMicrosecondsPerTask
        self.waitCPURatio = waitCPURatio
        self.utilization = utilization
        self.peakConcurrency = peakConcurrency
        self.threads = threads
        self.effectiveNice = effectiveNice
        self.integrity = integrity
        self.criticalSections = criticalSections
        self.latency = latency
        self.execution = execution
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.maxRSSKilobytes = maxRSSKilobytes
        self.processThreads = processThreads
        self.otherLoad = otherLoad
        self.invalidReason = invalidReason
        self.errors = errors
    }
}

/// What an open-loop trial adds to a closed-loop one: the rate offered and carried, the backlog
/// of tasks that arrived but had not finished, and the verdict on stability. The trial's
/// latency percentiles then count from each task's intended arrival, not from its submission.
public struct OpenLoopFigures: Equatable, Sendable, Codable {
    /// The nominal arrival rate, tasks/s.
    public var arrivalRate: ArrivalRate
    /// Arrivals whose intended time fell in the window, per second of window (the draw of the
    /// arrival process, around the nominal rate).
    public var offeredPerSecond: Double
    /// Tasks finished in the window per second of window.
    public var achievedPerSecond: Double
    /// Mean of tasks arrived and not finished (queued or running), seen at each arrival in the
    /// window; arrivals of a Poisson process see the time average.
    public var backlogMean: Double
    /// Most tasks arrived and not finished at any arrival in the window.
    public var backlogMax: Int
    /// Mean backlog over the window's last quarter minus its first quarter: near 0 when the pool
    /// keeps up, growing with the window when it does not.
    public var backlogGrowth: Double
    /// Achieved ≥ 99% of offered (allowing for the tasks in service at the window's edges) and
    /// the backlog did not grow (by more than the pool size or 1% of the window's arrivals).
    public var stable: Bool
    /// Tasks that arrived in the window and had not finished when the trial stopped; their
    /// latency is counted as at least their time so far.
    public var unfinished: Int
    /// 99th percentile of how late the dispatcher handed tasks to the pool, µs: the tool's own
    /// lag, already inside the latencies (which count from the intended time).
    public var dispatchLagP99Microseconds: Double

    /// Figures as measured.
    public init(
        arrivalRate: ArrivalRate, offeredPerSecond: Double, achievedPerSecond: Double, backlogMean: Double,
        backlogMax: Int, backlogGrowth: Double, stable: Bool, unfinished: Int = 0,
        dispatchLagP99Microseconds: Double = 0
    ) {
        self.arrivalRate = arrivalRate
        self.offeredPerSecond = offeredPerSecond
        self.achievedPerSecond = achievedPerSecond
        self.backlogMean = backlogMean
        self.backlogMax = backlogMax
        self.backlogGrowth = backlogGrowth
        self.stable = stable
        self.unfinished = unfinished
        self.dispatchLagP99Microseconds = dispatchLagP99Microseconds
    }

    /// Share of offered arrivals a pool must carry to count as keeping up.
    public static let carriedShare = 0.99

    /// The stability verdict: the pool carried at least 99% of the offered arrivals and its
    /// backlog grew by no more than `max(poolSize, 1% of the window's arrivals)`.
    ///
    /// What was carried falls short of what arrived by the change in tasks held between the
    /// window's edges. A pool that keeps up has about `busyQueues` tasks in service at any
    /// moment (offered rate × service time, Little's law, at most the pool size), a count that
    /// varies like a Poisson one, so the difference between two edges has a standard deviation
    /// of about √(2 × busyQueues). The shortfall allowed is 1% of the window's arrivals plus
    /// that one standard deviation: edge noise alone no longer fails a short window (36 queues at
    /// 500/s of 16 ms tasks in a 1 s window carried 524 of 531 arrivals, 98.7%, with a flat
    /// backlog), while a pool short of capacity still fails, since its shortfall grows with the
    /// window and the allowance is fixed by the rate and the task. Anything not finite fails.
    public static func isStable(
        offered: Double, achieved: Double, growth: Double, poolSize: Int, arrivalsInWindow: Int, busyQueues: Double
    ) -> Bool {
        guard offered.isFinite, achieved.isFinite, growth.isFinite, busyQueues.isFinite else { return false }
        let arrivals = Double(arrivalsInWindow)
        let shortfall = offered > 0 ? arrivals * (1 - achieved / offered) : 0
        let inService = min(max(0, busyQueues), Double(max(poolSize, 1)))
        return shortfall <= (1 - carriedShare) * arrivals + (2 * inService).squareRoot()
            && growth <= max(Double(poolSize), 0.01 * arrivals)
    }
}

/// Percentiles of a latency distribution in microseconds.
public struct LatencyPercentiles: Equatable, Sendable, Codable {
    /// Median.
    public var p50: Double
    /// 90th percentile.
    public var p90: Double
    /// 99th percentile.
    public var p99: Double
    /// 99.9th percentile.
    public var p999: Double
    /// Largest value recorded.
    public var max: Double

    /// Percentiles as given; 0 stands for "not recorded".
    public init(p50: Double = 0, p90: Double = 0, p99: Double = 0, p999: Double = 0, max: Double = 0) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
    }
}

extension Collection where Element == TrialRecord {
    /// Integrity over several trials: `violated` if any was, `n/a` if none had a critical
    /// section, else `ok`.
    package var integrityVerdict: Integrity { Integrity.combined(map(\.integrity)) }

    /// The throughput curve's last step still climbs: the largest size's mean beats the next
    /// smaller size's by more than half the tolerance, so the peak may lie further out.
    public func risesAtLargestSize(tolerance: Double) -> Bool {
        let bySize = Dictionary(grouping: self, by: \.poolSize)
        let sizes = bySize.keys.sorted()
        guard sizes.count >= 2 else { return false }
        func mean(_ size: Int) -> Double {
            bySize[size]!.map(\.throughputPerSecond).reduce(0, +) / Double(bySize[size]!.count)
        }
        return mean(sizes[sizes.count - 1]) > (1 + tolerance / 2) * mean(sizes[sizes.count - 2])
    }
}
