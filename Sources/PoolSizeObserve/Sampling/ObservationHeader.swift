import PoolSizeModel

/// Everything about an observation except its samples: the target, the clock and machine
/// facts the estimator needs, what it cost and what could not be measured.
package struct ObservationHeader: Equatable, Sendable, Codable {
    /// The observed process.
    package var target: ObservedTarget
    /// The syscall numbering of the target.
    package var architecture: SyscallArchitecture
    /// sysconf(_SC_CLK_TCK): the unit of stat's tick fields.
    package var clockTicksPerSecond: Double
    /// The CPUs the target may use: its affinity mask and its cgroup's quota; `override` is
    /// `--parallelism` (a runtime's limit: GOMAXPROCS, an event-loop count; a CPython or Ruby
    /// interpreter lock is found per pool without it, `KnownProgram`).
    package var cores: CoreCount
    /// The seed of the Poisson schedule.
    package var seed: UInt64
    /// What observing cost.
    package var sampler: SamplerCost
    /// What could not be measured.
    package var limits: [ObservationLimit]
    /// /proc/pressure/cpu `some avg10` at the end: the share of time some runnable task on the
    /// machine waited for a CPU (machine-wide context); nil without PSI.
    package var cpuPressureSomePercent: Double?
    /// The duration asked for, seconds; nil in recordings made before it was kept.
    package var plannedSeconds: Double?
    /// True when a stop (Ctrl-C, SIGTERM) cut the observation short; nil in older recordings.
    package var interrupted: Bool?
    /// `observe -- CMD`: seconds into the observation when a sweep found the command gone, when
    /// it ended before the duration (the observation ends with it, as `time` does); nil otherwise.
    package var commandEndedSeconds: Double?
}
