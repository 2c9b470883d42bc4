import PoolSizeModel
import PoolSizeObserve

/// The figures of an observation.json that `observe` cannot have written, though they decode: a
/// negative duration or share, a pool of no threads, a timeline slice that ends before it starts
/// or after the observation, a count of cores or threads no machine has (1e300). The sweep's
/// files pass the same kind of check (`RunDirectory.checkValues`); without it a report would
/// chart a share of 250% or divide by a duration of 0.
///
/// Figures derived from a rate the user gave (the per-task times, W/C and the sizes, which grow
/// without bound as the CPU share shrinks) are only held to being finite and not negative.
enum ObservationValues {
    /// Longest observation read: `observe` samples for at most 24 h; twice that leaves room for
    /// a last sweep that came late, and still refuses 1e300 s.
    static let maximumSeconds = 172_800.0
    /// Most threads a pool can have alive: Linux's PID_MAX_LIMIT (include/linux/threads.h), the
    /// most task ids that can exist at once.
    static let maximumThreads = 4_194_304
    /// Most cores a machine or a pool's CPU use can count: `--parallelism`'s and the planner's
    /// limit (`CapacityPlanner.maximumCoresPerHost`).
    static let maximumCores = 4096

    /// One figure out of its range: its key as the file spells it, its value and the range in
    /// words.
    struct Fault: Equatable {
        var key: String
        var value: Double
        var expected: String
    }

    /// What a figure may be.
    struct Rule: Sendable {
        let admits: @Sendable (Double) -> Bool
        let words: String

        /// A share of time: 0 to 1. A sum of shares (busy's high end) may pass 1 by rounding.
        static let fraction = Rule(admits: { (0...(1 + 1e-9)).contains($0) }, words: "a fraction from 0 to 1")
        /// A finite amount, 0 or more (a figure without a natural ceiling).
        static let amount = Rule(admits: FiniteNumber.isQuantity, words: "a finite number, 0 or more")
        /// A finite amount above 0.
        static let positive = Rule(admits: { $0.isFinite && $0 > 0 }, words: "a finite number above 0")

        /// From `low` to `high`.
        static func within(_ low: Double, _ high: Double) -> Rule {
            Rule(
                admits: { (low...high).contains($0) },
                words: "from \(UnitFormat.number(low)) to \(UnitFormat.number(high))")
        }

        /// Above 0, at most `high`.
        static func above0(upTo high: Double) -> Rule {
            Rule(admits: { $0 > 0 && $0 <= high }, words: "above 0 and at most \(UnitFormat.number(high))")
        }
    }

    /// The first figure of `observation` out of its range, in the file's order of keys; nil when
    /// every one is in range.
    static func firstFault(_ observation: Observation) -> Fault? {
        var check = Checker()
        let o = observation
        let seconds = Rule.within(0, maximumSeconds), cores = Double(maximumCores)
        check("duration_seconds", o.durationSeconds, seconds)
        check("cores.online", Double(o.cores.online), .within(1, cores))
        check("cores.affinity", Double(o.cores.affinity), .within(1, cores))
        check("cores.cgroup_quota", o.cores.cgroupQuota.map(Double.init), .within(1, cores))
        check("cores.override", o.cores.override.map(Double.init), .within(1, cores))
        check("cpu_pressure_some_percent", o.cpuPressureSomePercent, .within(0, 100))
        check("sampler.sweeps", Double(o.sampler.sweeps), .amount)
        check("sampler.thread_reads", Double(o.sampler.threadReads), .amount)
        check("sampler.wall_seconds", o.sampler.wallSeconds, seconds)
        check("settings.target_utilization", o.settings.targetUtilization, .above0(upTo: 1))
        check("settings.throughput_per_second", o.settings.throughputPerSecond, .positive)
        check("settings.latency_seconds", o.settings.latencySeconds, .positive)
        check("settings.batches", Double(o.settings.batches), .within(1, Double(FiniteNumber.wholeLimit)))
        check("settings.counter.first", o.settings.counter?.first, .amount)
        check("settings.counter.last", o.settings.counter?.last, .amount)
        check("settings.counter.seconds", o.settings.counter?.seconds, seconds)
        check("planned_seconds", o.plannedSeconds, seconds)
        check("process_cpu_cores", o.processCPUCores, .within(0, cores))
        check("unseen_thread_cpu_cores", o.unseenThreadCPUCores, .within(0, cores))
        for (index, pool) in o.pools.enumerated() {
            check.pool(pool, key: "pools.[\(index)].", durationSeconds: o.durationSeconds)
        }
        return check.fault
    }

    /// Keeps the first fault it is shown.
    struct Checker {
        var fault: Fault?

        mutating func callAsFunction(_ key: @autoclosure () -> String, _ value: Double?, _ rule: Rule) {
            guard fault == nil, let value, !rule.admits(value) else { return }
            fault = Fault(key: key(), value: value, expected: rule.words)
        }

        mutating func range(_ key: String, _ range: ValueRange?, _ rule: Rule) {
            self(key + ".low", range?.low, rule)
            self(key + ".high", range?.high, rule)
        }

        mutating func pool(_ pool: PoolEstimate, key: String, durationSeconds: Double) {
            let threads = Double(maximumThreads), cores = Double(maximumCores)
            self(key + "threads", Double(pool.threads), .within(1, threads))
            // Not bounded below by `threads`: a thread renamed long after it appeared is seen under
            // its new name only, while its first name's pool keeps the samples it had.
            self(key + "threads_seen", Double(pool.threadsSeen), .within(0, threads))
            self(key + "threads_started", Double(pool.threadsStarted), .within(0, Double(pool.threadsSeen)))
            self(key + "threads_exited", Double(pool.threadsExited), .within(0, Double(pool.threadsSeen)))
            self(key + "mean_threads", pool.meanThreads, .within(0, threads))
            self(key + "samples", Double(pool.samples), .amount)
            self(key + "cpu_cores", pool.cpuCores, .within(0, cores))
            self(key + "queue_to_cpu", pool.queueToCPU, .amount)
            range(key + "busy", pool.busy, .fraction)
            range(key + "wait_to_cpu", pool.waitToCPU, .amount)
            range(key + "wait_to_cpu_interval95", pool.waitToCPUInterval95, .amount)
            range(key + "size", pool.size, .positive)
            range(key + "size_with_cores", pool.sizeWithCores, .positive)
            self(key + "processes", pool.processes.map(Double.init), .within(1, threads))
            self(key + "parallelism", pool.parallelism.map(Double.init), .within(1, cores))
            for (index, share) in pool.shares.enumerated() {
                let at = key + "shares.[\(index)]."
                self(at + "fraction", share.fraction, .fraction)
                self(at + "interval95.lower", share.interval95?.lower, .fraction)
                self(at + "interval95.upper", share.interval95?.upper, .fraction)
            }
            for (name, labels) in [("top_calls", pool.topCalls), ("top_peers", pool.topPeers)] {
                for (index, label) in labels.enumerated() {
                    self(key + "\(name).[\(index)].samples", Double(label.samples), .amount)
                    self(key + "\(name).[\(index)].fraction", label.fraction, .fraction)
                }
            }
            self(key + "switches_per_thread_second.voluntary", pool.switchesPerThreadSecond?.voluntary, .amount)
            self(key + "switches_per_thread_second.involuntary", pool.switchesPerThreadSecond?.involuntary, .amount)
            if let task = pool.perTask { perTask(task, key: key + "per_task.") }
            for (index, slice) in pool.timeline.enumerated() {
                let at = key + "timeline.[\(index)]."
                self(at + "start_seconds", slice.startSeconds, .within(0, durationSeconds))
                // A slice has a length, and ends where the observation does at the latest.
                self(
                    at + "end_seconds", slice.endSeconds,
                    .init(
                        admits: { $0 > slice.startSeconds && $0 <= durationSeconds },
                        words: "above start_seconds and at most duration_seconds"))
                self(at + "mean_threads", slice.meanThreads, .within(0, threads))
                self(at + "cpu_cores", slice.cpuCores, .within(0, cores))
                self(at + "samples", Double(slice.samples), .amount)
                if let shares = slice.shares {
                    self(at + "shares.running", shares.running, .fraction)
                    self(at + "shares.runnable", shares.runnable, .fraction)
                    self(at + "shares.blocked_io", shares.blockedIO, .fraction)
                    self(at + "shares.ambiguous", shares.ambiguous, .fraction)
                    self(at + "shares.idle", shares.idle, .fraction)
                }
            }
        }

        mutating func perTask(_ task: TaskEstimate, key: String) {
            self(key + "throughput_per_second", task.throughputPerSecond, .positive)
            self(key + "cpu_seconds", task.cpuSeconds, .amount)
            self(key + "run_queue_seconds", task.runQueueSeconds, .amount)
            range(key + "wait_seconds", task.waitSeconds, .amount)
            range(key + "threads_needed", task.threadsNeeded, .amount)
            range(key + "wait_probability", task.waitProbability, .fraction)
            self(key + "resolved_wait_seconds", task.resolvedWaitSeconds, .amount)
            self(key + "tasks_in_flight", task.tasksInFlight, .amount)
            self(key + "resolved_wait_to_cpu", task.resolvedWaitToCPU, .amount)
            self(key + "resolved_size", task.resolvedSize, .positive)
        }
    }
}
