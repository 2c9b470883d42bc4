/// One measured trial: a pool of one kind and size, running one workload for one repetition.
/// Field names carry their units (STYLE.md §7); the CSV writer maps them to columns.
public struct TrialRecord: Equatable, Sendable, Codable {
    public var runID: String
    public var workload: String
    public var pool: PoolKind
    public var qos: QoSTier
    public var primitive: PrimitiveKind
    public var poolSize: Int
    public var repetition: Int
    /// Tasks counted in the measurement window (tasks straddling its edges count by the fraction
    /// of their run inside it, so this can be fractional).
    public var tasks: Double
    /// Length of the measurement window.
    public var wallSeconds: Double
    public var throughputPerSecond: Double
    /// Mean thread CPU time per task (CLOCK_THREAD_CPUTIME_ID across the task body).
    public var cpuMicrosecondsPerTask: Double
    /// Mean task wall time minus its CPU time. Includes run-queue delay when oversubscribed.
    public var waitMicrosecondsPerTask: Double
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
    public var integrity: String

    public init(
        runID: String, workload: String, pool: PoolKind, qos: QoSTier, primitive: PrimitiveKind,
        poolSize: Int, repetition: Int, tasks: Double, wallSeconds: Double, throughputPerSecond: Double,
        cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double, waitCPURatio: Double,
        utilization: Double, peakConcurrency: Int, threads: Int, effectiveNice: Int, integrity: String
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
    }
}
