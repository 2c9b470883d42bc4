import PoolSizeModel

/// The result of `poolsize observe`: the target's pools with their shares, sizes and verdicts,
/// and what observing cost and could not measure. What the console table and the JSON render.
package struct Observation: Equatable, Sendable, Codable {
    /// The observed process.
    package var target: ObservedTarget
    /// Seconds from the first sweep to the last.
    package var durationSeconds: Double
    /// The cores the sizes assume (affinity, cgroup quota, `--parallelism` as the override).
    package var cores: CoreCount
    /// The settings the estimate used.
    package var settings: EstimatorSettings
    /// What observing cost.
    package var sampler: SamplerCost
    /// What could not be measured.
    package var limits: [ObservationLimit]
    /// Machine-wide CPU pressure at the end (PSI `some avg10`, percent).
    package var cpuPressureSomePercent: Double?
    /// The pools, the one using the most CPU first.
    package var pools: [PoolEstimate]
    /// The duration asked for, seconds; nil when unknown (an older recording).
    package var plannedSeconds: Double?
    /// True when Ctrl-C or SIGTERM cut the observation short: the figures cover
    /// `durationSeconds` of `plannedSeconds`. Nil when it was not (and in older files).
    package var interrupted: Bool?
    /// `observe -- CMD`: seconds into the observation when a sweep found the command gone, when
    /// it ended before the duration asked for; the figures cover its life. Nil otherwise.
    package var commandEndedSeconds: Double?
    /// The grouping rules that placed no thread in their pool (a pattern matching nothing, or
    /// only threads an earlier rule took), in the order given; nil when every rule placed one.
    package var unmatchedGroupRules: [GroupRule]?
    /// The watched processes' CPU over the observation from their stat (every thread they had,
    /// those that ended included), cores; nil when not read (an older recording).
    package var processCPUCores: Double?
    /// Of it, the CPU no sweep saw: threads that started and ended between two sweeps, and
    /// what ended threads used after their last sample, cores.
    package var unseenThreadCPUCores: Double?

    /// Keys as a snake_cased file reads back (`process_cpu_cores` → `processCpuCores`).
    enum CodingKeys: String, CodingKey {
        case target, durationSeconds, cores, settings, sampler, limits, cpuPressureSomePercent, pools
        case plannedSeconds, interrupted, commandEndedSeconds, unmatchedGroupRules
        case processCPUCores = "processCpuCores", unseenThreadCPUCores = "unseenThreadCpuCores"
    }

    /// An observation.
    package init(
        target: ObservedTarget, durationSeconds: Double, cores: CoreCount, settings: EstimatorSettings,
        sampler: SamplerCost, limits: [ObservationLimit], cpuPressureSomePercent: Double?, pools: [PoolEstimate]
    ) {
        self.target = target
        self.durationSeconds = durationSeconds
        self.cores = cores
        self.settings = settings
        self.sampler = sampler
        self.limits = limits
        self.cpuPressureSomePercent = cpuPressureSomePercent
        self.pools = pools
    }
}
