import PoolSizeModel
import PoolSizeStats

extension Combination {
    /// `queue-pool / default / none`: the spaced form reports and chart legends use.
    public var label: String { "\(pool.rawValue) / \(qos.rawValue) / \(primitive.rawValue)" }
}

/// One configuration (combination × pool size) over its repetitions: what summary.csv holds,
/// computed from the trials so a report needs nothing but trials.csv.
/// Every per-configuration figure (the console's table, summary.csv, the report, the charts)
/// comes from here: means over the repetitions that recorded a finite value.
public struct ConfigurationSummary: Equatable, Sendable {
    /// The workload's name.
    public var workload: String
    /// The pool kind, QoS tier and primitive.
    public var combination: Combination
    /// Queues (threads) in the pool.
    public var poolSize: Int
    /// Throughput over the repetitions, in tasks per second.
    public var throughput: Summary
    /// Repetitions, in the order measured, for error bars and outlier notes.
    public var throughputSamples: [Double]
    /// Repetition numbers whose throughput is a MAD outlier among them.
    public var outlierRepetitions: [Int]
    /// Mean over repetitions of the median submit-to-completion latency, µs.
    public var latencyP50Microseconds: Double
    /// Mean over repetitions of the 99th-percentile latency, µs.
    public var latencyP99Microseconds: Double
    /// Mean share of the cores the process kept busy, 0–1.
    public var utilization: Double
    /// Mean W/C measured under this load (includes run-queue delay when oversubscribed).
    public var waitCPURatio: Double
    /// Mean thread CPU time per task, µs.
    public var cpuMicrosecondsPerTask: Double
    /// Most tasks seen running at once in any repetition.
    public var peakConcurrency: Int
    /// Most OS threads that ran tasks in any repetition.
    public var threads: Int
    /// Lowest nice value a worker ran at.
    public var effectiveNice: Int
    /// Integrity over the repetitions.
    package var integrity: Integrity
    /// Mean voluntary context switches (blocking) per trial window.
    public var voluntaryContextSwitches: Double
    /// Mean involuntary context switches (preemption) per trial window.
    public var involuntaryContextSwitches: Double
    /// Context switches per second of measurement window.
    public var voluntaryContextSwitchesPerSecond: Double
    /// Involuntary context switches per second of window.
    public var involuntaryContextSwitchesPerSecond: Double
    /// Mean share of the cores used by other processes during the trials.
    public var otherLoad: Double
    /// Failed tasks over all repetitions' windows.
    public var errors: Int
    /// Failed tasks as a share of all the windows' tasks, failed and succeeded (at most 1).
    public var errorRate: Double
    /// Open-loop configurations: the offered arrival rate, tasks/s (a configuration is then a
    /// combination × rate × size); nil for a closed loop.
    public var arrivalRate: ArrivalRate?
    /// Open-loop configurations: the figures only an open loop has; nil for a closed loop.
    package var openLoop: OpenLoopSummary?

    /// nil when `records` is empty.
    public init?(_ records: [TrialRecord]) {
        guard let first = records.first, let throughput = Summary(records.map(\.throughputPerSecond)) else {
            return nil
        }
        func mean(_ values: [Double]) -> Double {
            let finite = values.filter(\.isFinite)
            return finite.isEmpty ? .nan : finite.reduce(0, +) / Double(finite.count)
        }
        func perSecond(_ count: Int, _ r: TrialRecord) -> Double {
            r.wallSeconds > 0 ? Double(count) / r.wallSeconds : 0
        }
        workload = first.workload
        combination = first.combination
        poolSize = first.poolSize
        self.throughput = throughput
        let ordered = records.sorted { $0.repetition < $1.repetition }
        throughputSamples = ordered.map(\.throughputPerSecond)
        outlierRepetitions = Outliers.madIndices(throughputSamples).map { ordered[$0].repetition }
        latencyP50Microseconds = mean(records.map(\.latency.p50))
        latencyP99Microseconds = mean(records.map(\.latency.p99))
        utilization = mean(records.map(\.utilization))
        waitCPURatio = mean(records.map(\.waitCPURatio))
        cpuMicrosecondsPerTask = mean(records.map(\.cpuMicrosecondsPerTask))
        peakConcurrency = records.map(\.peakConcurrency).max()!
        threads = records.map(\.threads).max()!
        effectiveNice = records.map(\.effectiveNice).min()!
        integrity = records.integrityVerdict
        voluntaryContextSwitches = mean(records.map { Double($0.voluntaryContextSwitches) })
        involuntaryContextSwitches = mean(records.map { Double($0.involuntaryContextSwitches) })
        voluntaryContextSwitchesPerSecond = mean(records.map { perSecond($0.voluntaryContextSwitches, $0) })
        involuntaryContextSwitchesPerSecond = mean(records.map { perSecond($0.involuntaryContextSwitches, $0) })
        otherLoad = mean(records.map(\.otherLoad))
        errors = records.map(\.errors).reduce(0, +)
        let tasks = records.map(\.tasks).reduce(0, +)
        errorRate = tasks + Double(errors) > 0 ? Double(errors) / (tasks + Double(errors)) : 0
        arrivalRate = first.arrivalRate
        openLoop = OpenLoopSummary(records)
    }

    /// One summary per configuration, sorted by combination, then arrival rate (open loop), then
    /// pool size. Open-loop trials at different rates are different configurations: a row never
    /// mixes rates.
    public static func summarize(_ records: [TrialRecord]) -> [ConfigurationSummary] {
        let groups = Dictionary(grouping: records) {
            ConfigurationKey(combination: $0.combination, rate: $0.arrivalRate, poolSize: $0.poolSize)
        }
        return groups.keys.sorted().compactMap { ConfigurationSummary(groups[$0]!) }
    }

    struct ConfigurationKey: Hashable, Comparable {
        var combination: Combination
        /// Rates read back from trials.csv match their planned rates (`ArrivalRate`'s equality).
        var rate: ArrivalRate?
        var poolSize: Int
        static func < (a: Self, b: Self) -> Bool {
            if a.combination != b.combination { return a.combination < b.combination }
            if a.rate != b.rate { return (a.rate ?? -1) < (b.rate ?? -1) }
            return a.poolSize < b.poolSize
        }
    }
}

/// What an open-loop configuration adds over its repetitions: the rate offered and carried,
/// the backlog, and whether every repetition kept up.
package struct OpenLoopSummary: Equatable, Sendable {
    /// Mean arrivals per second in the windows.
    package var offeredPerSecond: Double
    /// Mean tasks finished per second in the windows.
    package var achievedPerSecond: Double
    /// Every repetition kept up (carried ≥ 99% of the arrivals, backlog not growing).
    package var stable: Bool
    /// Repetitions that did not keep up.
    package var unstableRepetitions: Int
    /// Mean over repetitions of the mean backlog (tasks arrived, not finished).
    package var backlogMean: Double
    /// Largest backlog any repetition saw.
    package var backlogMax: Int
    /// Tasks still unfinished at the stop, over all repetitions: their latency is a lower bound.
    package var unfinished: Int
    /// The largest 99th percentile of the dispatcher's lag over the repetitions, µs.
    package var dispatchLagP99Microseconds: Double
    /// Whether every repetition's backlog was seen arrival by arrival
    /// (`OpenLoopFigures.backlogMeasured`). When not (a load tool given the rate),
    /// `backlogMean` is Little's law's, and `backlogMax`, `unfinished` and the dispatcher's
    /// lag are those of the repetitions that were (0 and NaN when none was): not measured.
    package var backlogMeasured: Bool
    /// Latency percentiles (from intended arrival), each the worst repetition's, µs: the
    /// objective is judged on the worst repetition.
    package var worstLatency: LatencyPercentiles

    /// nil when none of `records` is open-loop.
    package init?(_ records: [TrialRecord]) {
        let figures = records.compactMap(\.openLoop)
        guard !figures.isEmpty else { return nil }
        let n = Double(figures.count)
        offeredPerSecond = figures.map(\.offeredPerSecond).reduce(0, +) / n
        achievedPerSecond = figures.map(\.achievedPerSecond).reduce(0, +) / n
        stable = figures.allSatisfy(\.stable)
        unstableRepetitions = figures.filter { !$0.stable }.count
        backlogMean = figures.map(\.backlogMean).reduce(0, +) / n
        let seen = figures.filter(\.backlogMeasured)
        backlogMeasured = seen.count == figures.count
        backlogMax = seen.map(\.backlogMax).max() ?? 0
        unfinished = seen.map(\.unfinished).reduce(0, +)
        dispatchLagP99Microseconds = seen.map(\.dispatchLagP99Microseconds).max() ?? .nan
        let open = records.filter(\.isOpenLoop)
        worstLatency = LatencyPercentiles(
            p50: open.map(\.latency.p50).max() ?? 0, p90: open.map(\.latency.p90).max() ?? 0,
            p99: open.map(\.latency.p99).max() ?? 0,
            p999: open.map(\.latency.p999).max() ?? 0, max: open.map(\.latency.max).max() ?? 0)
    }
}
