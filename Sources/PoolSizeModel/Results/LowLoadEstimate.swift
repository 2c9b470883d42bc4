import PoolSizeStats

/// W and C measured with one worker before the sweep. Under CPU oversubscription a task's wall
/// time also holds run-queue delay, which is not wait, so the formula's W/C comes from a load
/// where no task waits for a CPU (docs/platform.md "Measuring W and C").
public struct LowLoadEstimate: Equatable, Sendable, Codable {
    /// Tasks measured.
    public var tasks: Int
    /// Seconds of measurement window.
    public var seconds: Double
    /// Mean thread CPU time per task, µs (C).
    public var cpuMicrosecondsPerTask: Double
    /// Mean wall time minus CPU time per task, µs (W).
    public var waitMicrosecondsPerTask: Double
    /// Σ W / Σ C over the tasks, with its delta-method standard error and t-interval.
    package var ratio: RatioOfMeans?
    /// Percentiles of a task's own time, C + W, µs: the least latency any pool size can give
    /// (nil when no task was measured).
    public var taskTime: LatencyPercentiles?
    /// For a command as the task: what starting its program costs alone (`ProcessStart`), to
    /// set against C; nil for other tasks, or a program the loader cannot start without running it.
    package var processStart: ProcessStart?
    /// For a server: the pool whose threads' CPU is C (`ServerThreadGroups`), when the server
    /// has other threads too; nil when C is all of its processes' CPU.
    package var servingPool: String?
    /// For a server whose pool is named: all its processes' CPU per request, µs (C plus what its
    /// other threads, an event loop or a JIT compiler, spend per request).
    package var processCPUMicrosecondsPerTask: Double?

    /// The names as the run directory's readers see them: `process_cpu_…` is read back as
    /// `processCpu…` (snake case has no acronyms), so that key is named so, and writes the same.
    enum CodingKeys: String, CodingKey {
        case tasks, seconds, cpuMicrosecondsPerTask, waitMicrosecondsPerTask, ratio, taskTime, processStart
        case servingPool
        case processCPUMicrosecondsPerTask = "processCpuMicrosecondsPerTask"
    }

    /// An estimate from its parts.
    package init(
        tasks: Int, seconds: Double, cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double,
        ratio: RatioOfMeans?
    ) {
        self.tasks = tasks
        self.seconds = seconds
        self.cpuMicrosecondsPerTask = cpuMicrosecondsPerTask
        self.waitMicrosecondsPerTask = waitMicrosecondsPerTask
        self.ratio = ratio
    }

    /// Builds the estimate from paired per-task W and C (µs).
    public init(waitMicroseconds: [Double], cpuMicroseconds: [Double], seconds: Double) {
        let n = Double(max(cpuMicroseconds.count, 1))
        self.init(
            tasks: cpuMicroseconds.count, seconds: seconds,
            cpuMicrosecondsPerTask: cpuMicroseconds.reduce(0, +) / n,
            waitMicrosecondsPerTask: waitMicroseconds.reduce(0, +) / n,
            ratio: RatioOfMeans(numerators: waitMicroseconds, denominators: cpuMicroseconds))
        let times = zip(waitMicroseconds, cpuMicroseconds).map { $0 + $1 }
        if !times.isEmpty {
            taskTime = LatencyPercentiles(
                p50: percentile(times, 50) ?? 0, p90: percentile(times, 90) ?? 0, p99: percentile(times, 99) ?? 0,
                p999: percentile(times, 99.9) ?? 0, max: times.max() ?? 0)
        }
    }

    /// W/C, 0 when no task was measured.
    public var waitCPURatio: Double { ratio?.ratio ?? 0 }

    /// Whether W and C were measured at all: a sweep of a load tool alone has no low-load phase
    /// (no CPU split per request), so neither W/C nor the formula exists for it.
    package var isMeasured: Bool { tasks > 0 }
}
