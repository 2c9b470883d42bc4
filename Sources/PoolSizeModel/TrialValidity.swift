/// Whether a trial's figures are ones the machine can produce. A trial that fails is kept in
/// trials.csv with the reason, named in the console and the report, and left out of every
/// curve, fit and recommendation.
public enum TrialValidity {
    /// Fewer tasks than this in the window make throughput a count of task fractions.
    public static let minimumTasks = 10.0
    /// Measurement slack allowed above a physical limit (clock and accounting granularity).
    public static let slack = 0.05

    /// Why `record` cannot be true on a machine of `physicalCores` CPUs, or nil when it can.
    /// - Parameters:
    ///   - cores: the cores the record's utilization is a share of (the sweep's `--cores`).
    ///   - physicalCores: the CPUs the process can run on (more than `cores` when a sweep sizes
    ///     for a smaller machine); nil for `cores`.
    public static func problem(_ record: TrialRecord, cores: Int, physicalCores: Int? = nil) -> String? {
        let limit = 1 + slack
        let cpus = max(physicalCores ?? cores, 1)
        let utilization = record.utilization * Double(cores) / Double(cpus)
        if record.throughputPerSecond.isFinite, record.throughputPerSecond > 0, record.tasks < minimumTasks {
            return "only \(UnitFormat.number(record.tasks)) tasks in a \(UnitFormat.duration(record.wallSeconds)) window (at least \(Int(minimumTasks)) are needed)"
        }
        if utilization.isFinite, utilization > limit {
            return "CPU utilization \(UnitFormat.percent(utilization)) of \(cpus) cores is above 100%"
        }
        if record.throughputPerSecond > 0, !(record.cpuMicrosecondsPerTask > 0) {
            return "\(UnitFormat.number(record.throughputPerSecond)) tasks/s with no CPU time per task measured"
        }
        let ceiling = Double(cpus) / (record.cpuMicrosecondsPerTask / 1e6)
        if record.throughputPerSecond > ceiling * limit {
            return "\(UnitFormat.number(record.throughputPerSecond)) tasks/s is above the \(UnitFormat.number(ceiling)) tasks/s that \(cpus) cores allow at C = \(UnitFormat.number(record.cpuMicrosecondsPerTask)) µs"
        }
        return nil
    }
}

extension Collection where Element == TrialRecord {
    /// The trials whose figures the machine can produce (no `invalidReason`).
    public var valid: [TrialRecord] { filter { $0.invalidReason == nil } }
}
