import PoolSizeStats

/// W and C measured with one worker before the sweep. Under CPU oversubscription a task's wall
/// time also holds run-queue delay, which is not wait, so the formula's W/C comes from a load
/// where no task waits for a CPU (DESIGN.md "Measuring W and C honestly").
public struct LowLoadEstimate: Equatable, Sendable, Codable {
    public var tasks: Int
    public var cpuMicrosecondsPerTask: Double
    public var waitMicrosecondsPerTask: Double
    /// Σ W / Σ C over the tasks.
    public var waitCPURatio: Double
    /// Spread of the per-task W/C values (nil with fewer than one task).
    public var perTaskRatio: Summary?

    public init(tasks: Int, cpuMicrosecondsPerTask: Double, waitMicrosecondsPerTask: Double, waitCPURatio: Double, perTaskRatio: Summary?) {
        self.tasks = tasks
        self.cpuMicrosecondsPerTask = cpuMicrosecondsPerTask
        self.waitMicrosecondsPerTask = waitMicrosecondsPerTask
        self.waitCPURatio = waitCPURatio
        self.perTaskRatio = perTaskRatio
    }
}
