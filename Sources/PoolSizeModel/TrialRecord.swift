/// One measured trial: a pool of one kind and size, running one workload for one repetition.
/// Field names carry their units (docs/conventions.md); the CSV writer maps them to columns.
public struct TrialRecord: Equatable, Sendable {
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
    /// A server trial's load driver: its thread's CPU per request, in µs (beside the server's C,
    /// to show the driver was not the limit); 0 when the pool's own threads made the requests.
    public var driverCPUMicrosecondsPerRequest: Double = 0
    /// How the trial's tasks arrived: the closed loop, or an open loop with its figures
    /// (TrialRecord+Load).
    package var loop: Loop = .closed
    /// The sizes a pool that sizes itself (`--pool adaptive`) chose over the trial, from its
    /// start; empty for a pool of fixed size, whose size is `poolSize` throughout.
    package var sizeSteps: [SizeStep] = []
    /// What the workload source watched outside the pool during the window: nothing, or the
    /// database behind the connections (TrialRecord+Watched).
    package var watched: Watched = .nothing
    /// How the window ended: at its planned length, or early once the throughput was known
    /// (TrialRecord+Window).
    package var windowEnd: WindowEnd = .planned
    /// Half-width of the throughput's 95% interval as a share of it, from the window's
    /// completions in consecutive batches (`RateEstimate`); nil when the trial has too few, or
    /// its tasks did not run in poolsize's own closed loop.
    package var throughputMargin: Double?

    /// Failed tasks as a share of the window's tasks, failed and succeeded (at most 1).
    public var failureShare: Double {
        let all = tasks + Double(errors)
        return all > 0 ? Double(errors) / all : 0
    }

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

    /// The `percentile`-th value: 50, 90 and 99.9 name their fields, anything else p99.
    package func value(percentile: Double) -> Double {
        switch percentile {
        case 50: return p50
        case 90: return p90
        case 99.9: return p999
        default: return p99
        }
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
