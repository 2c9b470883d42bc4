/// Whether a trial's figures are ones the machine can produce. A trial that fails is kept in
/// trials.csv with the reason, named in the console and the report, and left out of every
/// curve, fit and recommendation.
package enum TrialValidity {
    /// Fewer tasks than this in the window make throughput a count of task fractions.
    package static let minimumTasks = 10.0
    /// Measurement slack allowed above a physical limit (clock and accounting granularity).
    package static let slack = 0.05
    /// A trial that loses more of its tasks than this measured failures, not the pool: it is
    /// invalid, and a sweep holding one gives no recommendation (the low-load phase stops at
    /// the same share).
    package static let maximumFailureShare = 0.01

    /// More than `maximumFailureShare` of the trial's tasks failed.
    package static func failedTooOften(_ record: TrialRecord) -> Bool {
        record.errors > 0 && !(record.failureShare <= maximumFailureShare)
    }

    /// Why a trial with too few transactions finished them so: its database's backends waited on
    /// row locks in most samples (the window shorter than the lock waits, deadlocks among them:
    /// PostgreSQL breaks one only after `deadlock_timeout`, 1 s by default, so a shorter window
    /// counts no 40P01). Nil when the trial watched no database or its backends were mostly
    /// doing something else.
    static func stuckInLocks(_ record: TrialRecord) -> String? {
        guard let database = record.watched.database, database.dominant == .lock else { return nil }
        return
            "its backends waited on row locks in \(UnitFormat.percent(database.share(.lock))) of the samples, so transactions were stuck in lock waits longer than the window (PostgreSQL breaks a deadlock only after deadlock_timeout, 1 s by default); take the rows in one order in every transaction, or make \(PoolSizeError.Parameter.trialMilliseconds.mention) well longer than deadlock_timeout and lock_timeout"
    }

    /// Whether `record` is invalid for a reason a longer trial on a quieter machine may cure
    /// (too few tasks, figures past the machine's limits): not for failed tasks or a rate the
    /// dispatcher could not offer, whose reasons name their own fix.
    /// Only the figures' own problems (`problem`) qualify: a tool's exit, a stopped task, a
    /// server that crashed or broken connections name their own cause, which no longer trial
    /// mends.
    package static func mayPassWhenLonger(_ record: TrialRecord) -> Bool {
        guard let reason = record.invalidReason, !failedTooOften(record) else { return false }
        guard record.loop.problem(windowSeconds: record.wallSeconds) == nil else { return false }
        return figureProblems.contains { reason.hasPrefix($0.prefix) && reason.contains($0.marker) }
    }

    /// How each reason `problem` gives from the figures alone reads: its start and a phrase in it.
    static let figureProblems: [(prefix: String, marker: String)] = [
        ("no task finished in the ", " window"), ("only ", " tasks in a "), ("CPU utilization ", " is above 100%"),
        ("", " tasks/s with no CPU time per task measured"), ("", " tasks/s is above the "),
    ]

    /// Why `record` cannot be true on a machine of `physicalCores` CPUs, or nil when it can.
    /// - Parameters:
    ///   - cores: the cores the record's utilization is a share of (the sweep's `--cores`).
    ///   - physicalCores: the CPUs the process can run on (more than `cores` when a sweep sizes
    ///     for a smaller machine); nil for `cores`.
    package static func problem(_ record: TrialRecord, cores: Int, physicalCores: Int? = nil) -> String? {
        if failedTooOften(record) {
            return
                "\(record.errors) of \(UnitFormat.number(record.tasks + Double(record.errors))) tasks failed (\(UnitFormat.percentOneDecimal(record.failureShare)), more than the \(UnitFormat.percent(maximumFailureShare)) a trial may lose)"
        }
        if let shortfall = record.loop.problem(windowSeconds: record.wallSeconds) { return shortfall }
        let limit = 1 + slack
        let cpus = max(physicalCores ?? cores, 1)
        let utilization = record.utilization * Double(cores) / Double(cpus)
        // A closed loop that finished nothing in its window measured no throughput, however
        // long the tasks were: a zero is no point on the curve, and a curve of zeros no knee.
        if record.loop.emptyWindowMeasuresNothing, record.errors == 0, !(record.throughputPerSecond > 0) {
            return "no task finished in the \(UnitFormat.duration(record.wallSeconds)) window"
                + (stuckInLocks(record).map { ": \($0)" } ?? "")
        }
        if record.throughputPerSecond.isFinite, record.throughputPerSecond > 0, record.tasks < minimumTasks {
            return
                "only \(UnitFormat.number(record.tasks)) tasks in a \(UnitFormat.duration(record.wallSeconds)) window (at least \(Int(minimumTasks)) are needed)"
                + (stuckInLocks(record).map { ": \($0)" } ?? "")
        }
        if utilization.isFinite, utilization > limit {
            return "CPU utilization \(UnitFormat.percent(utilization)) of \(cpus) cores is above 100%"
        }
        // A load tool run alone measures no CPU per task: the checks against the cores need one.
        guard record.pool.measuresTaskCPU else { return nil }
        if record.throughputPerSecond > 0, !(record.cpuMicrosecondsPerTask > 0) {
            return "\(UnitFormat.number(record.throughputPerSecond)) tasks/s with no CPU time per task measured"
        }
        let ceiling = Double(cpus) / (record.cpuMicrosecondsPerTask / 1e6)
        if record.throughputPerSecond > ceiling * limit {
            return
                "\(UnitFormat.number(record.throughputPerSecond)) tasks/s is above the \(UnitFormat.number(ceiling)) tasks/s that \(cpus) cores allow at C = \(UnitFormat.number(record.cpuMicrosecondsPerTask)) µs"
        }
        return nil
    }
}

extension Collection where Element == TrialRecord {
    /// The trials whose figures the machine can produce (no `invalidReason`).
    package var valid: [TrialRecord] { filter { $0.invalidReason == nil } }

    /// Why these trials may give no recommendation, or nil when they may: a trial that lost
    /// more than `TrialValidity.maximumFailureShare` of its tasks measured failures, and a knee
    /// or a latency verdict found beside it would rest on a curve with a hole where the task
    /// broke.
    package var withheldRecommendation: String? {
        let failing = filter(TrialValidity.failedTooOften)
        if let first = failing.first {
            let sizes = Set(failing.map(\.poolSize)).sorted().map(String.init).joined(separator: ", ")
            return
                "\(failing.count) of \(count) trials lost more than \(UnitFormat.percent(TrialValidity.maximumFailureShare)) of their tasks (at size \(sizes); the first: \(first.errors) of \(UnitFormat.number(first.tasks + Double(first.errors))) failed), so the curve measures failures and no size is recommended; fix what makes the task fail and run the sweep again"
        }
        return nil
    }

    /// Why these trials gave no recommendation when the cause lies in them: failures
    /// (`withheldRecommendation`), no trial at all, or no valid one; nil otherwise (the cause is
    /// then elsewhere: no knee, no low-load figures).
    package var noRecommendationCause: String? {
        if let withheld = withheldRecommendation { return withheld }
        if isEmpty { return "no trials were measured" }
        if valid.isEmpty { return "none of the \(count) trials measured is valid (see the warnings)" }
        return nil
    }
}
