import PoolSizeModel
import Testing

/// The figures of the 4096-thread case: a window of microseconds counted fractions of tasks.
@Suite struct TrialValidityTests {
    static func record(
        tasks: Double = 500, window: Double = 0.5, throughput: Double = 1000, cpu: Double = 1000,
        utilization: Double = 0.5
    ) -> TrialRecord {
        TrialRecord(
            runID: "r", workload: "io", pool: .threadPool, qos: .default, primitive: .none, poolSize: 2048,
            repetition: 1,
            tasks: tasks, wallSeconds: window, throughputPerSecond: throughput, cpuMicrosecondsPerTask: cpu,
            waitMicrosecondsPerTask: 15000, waitCPURatio: 15, utilization: utilization, peakConcurrency: 2048,
            threads: 2048,
            effectiveNice: 0, integrity: .notApplicable)
    }

    @Test func aPlausibleTrialIsValid() {
        #expect(TrialValidity.problem(Self.record(), cores: 2) == nil)
        // At the ceiling itself (2 cores / 1 ms = 2000/s), within the measurement slack.
        #expect(TrialValidity.problem(Self.record(throughput: 2050), cores: 2) == nil)
    }

    @Test(arguments: [
        (
            record(tasks: 0.017, window: 0.000006, throughput: 2888),
            "only 0.017 tasks in a 6 µs window (at least 10 are needed)"
        ),
        (record(utilization: 210_907.18), "CPU utilization 21090718% of 2 cores is above 100%"),
        (record(throughput: 2888, cpu: 0), "2888 tasks/s with no CPU time per task measured"),
        (record(throughput: 2888), "2888 tasks/s is above the 2000 tasks/s that 2 cores allow at C = 1000 µs"),
    ])
    func impossibleFiguresAreNamed(record: TrialRecord, reason: String) {
        #expect(TrialValidity.problem(record, cores: 2) == reason)
    }

    /// A closed loop that finished nothing in its window measured nothing, at any size: no
    /// throughput of 0 is a point on the curve (a `--load` printing 0/s at every size gave
    /// "recommended 1"); with errors the failure share decides.
    @Test func noTaskFinishedIsInvalid() {
        let none = Self.record(tasks: 0, window: 0.8, throughput: 0)
        #expect(TrialValidity.problem(none, cores: 2) == "no task finished in the 800 ms window")
        #expect(TrialValidity.problem(Self.record(tasks: 0, window: 0.8, throughput: .nan), cores: 2) != nil)
        var failing = none
        failing.errors = 40
        #expect(TrialValidity.problem(failing, cores: 2)?.hasPrefix("40 of 40 tasks failed") == true)
    }

    /// A database whose backends waited on row locks in most samples names the lock waits as the
    /// cause of a window with no or too few transactions, and what to change (the deadlock case:
    /// two UPDATEs in random order, a window shorter than deadlock_timeout).
    @Test func transactionsStuckInLockWaitsAreNamed() {
        var none = Self.record(tasks: 0, window: 0.8, throughput: 0)
        none.watched = .database(DatabaseFigures(waitSamples: [.lock: 90, .client: 10], snapshots: 50))
        let cause =
            "its backends waited on row locks in 90% of the samples, so transactions were stuck in lock waits longer than the window (PostgreSQL breaks a deadlock only after deadlock_timeout, 1 s by default); take the rows in one order in every transaction, or make `trialMilliseconds` well longer than deadlock_timeout and lock_timeout"
        #expect(TrialValidity.problem(none, cores: 2) == "no task finished in the 800 ms window: " + cause)
        var few = Self.record(tasks: 3, window: 0.8, throughput: 3.75)
        few.watched = none.watched
        #expect(
            TrialValidity.problem(few, cores: 2)
                == "only 3 tasks in a 800 ms window (at least 10 are needed): " + cause)
        // Backends mostly on the CPU: a short window, nothing about locks.
        few.watched = .database(DatabaseFigures(waitSamples: [.lock: 10, .cpu: 90], snapshots: 50))
        #expect(TrialValidity.problem(few, cores: 2) == "only 3 tasks in a 800 ms window (at least 10 are needed)")
    }

    /// The advice to lengthen the trials follows the cause: the figures' own problems only, not a
    /// tool's exit, a stopped task or a server that died, which a longer trial does not mend.
    @Test(arguments: [
        ("only 3 tasks in a 800 ms window (at least 10 are needed)", true),
        ("no task finished in the 800 ms window", true),
        ("CPU utilization 210% of 2 cores is above 100%", true),
        ("2888 tasks/s is above the 2000 tasks/s that 2 cores allow at C = 1000 µs", true),
        ("sh: exited with status 3; its last lines on stderr: 'connection refused'", false),
        ("the server exited during the trial (killed by signal 9)", false),
        ("the load driver used 97% of its core, so it, not the server, may have been the limit", false),
    ])
    func lengtheningIsAdvisedForTheFiguresOwnProblems(reason: String, advised: Bool) {
        var record = Self.record()
        record.invalidReason = reason
        #expect(TrialValidity.mayPassWhenLonger(record) == advised)
    }

    @Test func invalidTrialsAreFilteredOut() {
        var bad = Self.record(throughput: 2888)
        bad.invalidReason = TrialValidity.problem(bad, cores: 2)
        #expect([Self.record(), bad].valid == [Self.record()])
    }
}

@Suite struct TrialValidityOverrideTests {
    /// Sizing for 1 core on a 2-CPU machine: 180% of the 1 sizing core is 90% of the machine,
    /// and 1,500 tasks/s at C = 1 ms is within what 2 CPUs allow.
    @Test func aSmallerCoreCountDoesNotMakeRealFiguresImpossible() {
        let record = TrialValidityTests.record(throughput: 1500, utilization: 1.8)
        #expect(TrialValidity.problem(record, cores: 1, physicalCores: 2) == nil)
        #expect(TrialValidity.problem(record, cores: 1) != nil)
    }
}

/// A trial that lost its tasks measured failures; a dispatcher that could not offer the rate
/// measured another rate. Neither decides a recommendation.
@Suite struct FailedTrialValidityTests {
    static func failing(errors: Int, tasks: Double = 500, size: Int = 4) -> TrialRecord {
        var r = TrialValidityTests.record(tasks: tasks)
        r.poolSize = size
        r.errors = errors
        return r
    }

    @Test func oneFailureInAHundredIsAllowedMoreIsNot() {
        // 5 of 500 + 5 = 0.99%: allowed; 6 of 506 = 1.19%: not.
        #expect(TrialValidity.problem(Self.failing(errors: 5), cores: 2) == nil)
        #expect(
            TrialValidity.problem(Self.failing(errors: 6), cores: 2)
                == "6 of 506 tasks failed (1.2%, more than the 1% a trial may lose)")
    }

    @Test func aTrialOfOnlyFailuresIsNamedAsSuchNotAsTooFewTasks() {
        var r = Self.failing(errors: 53_075, tasks: 0)
        r.throughputPerSecond = 0
        #expect(
            TrialValidity.problem(r, cores: 2)
                == "53075 of 53075 tasks failed (100.0%, more than the 1% a trial may lose)")
        #expect(r.failureShare == 1)
    }

    @Test func failingTrialsWithholdTheRecommendation() {
        var records = [1, 2, 8].map { TrialValidityTests.record(tasks: 500).with(size: $0) }
        #expect(records.withheldRecommendation == nil)
        records.append(Self.failing(errors: 400, tasks: 100, size: 8))
        records[3].invalidReason = TrialValidity.problem(records[3], cores: 2)
        #expect(
            records.withheldRecommendation
                == "1 of 4 trials lost more than 1% of their tasks (at size 8; the first: 400 of 500 failed), so the curve measures failures and no size is recommended; fix what makes the task fail and run the sweep again"
        )
    }

    @Test func invalidTrialsWithoutFailuresWithholdNothing() {
        var r = TrialValidityTests.record(throughput: 2888)
        r.invalidReason = TrialValidity.problem(r, cores: 2)
        #expect([r].withheldRecommendation == nil)
        #expect([TrialRecord]().withheldRecommendation == nil)
    }

    static func openLoop(rate: Double, offered: Double, window: Double = 1) -> TrialRecord {
        var r = TrialValidityTests.record(tasks: offered * window, window: window, throughput: min(offered, 1000))
        r.loop = .open(
            OpenLoopFigures(
                arrivalRate: ArrivalRate(perSecond: rate), offeredPerSecond: offered, achievedPerSecond: offered,
                backlogMean: 0, backlogMax: 0, backlogGrowth: 0, stable: true))
        return r
    }

    @Test func aDispatcherThatCannotOfferTheRateMakesTheTrialInvalid() {
        // 200000/s asked, none offered in the window: the trial measured nothing of that rate.
        #expect(
            TrialValidity.problem(Self.openLoop(rate: 200_000, offered: 0), cores: 2)
                == "the dispatcher offered 0/s of the 200000/s asked: this machine cannot hand tasks to a pool that fast, so the trial did not measure that rate (lower the arrival rate)"
        )
        // 1000/s over 1 s: 900 − 3√1000 ≈ 805 arrivals is the floor; Poisson noise (950) passes.
        #expect(TrialValidity.problem(Self.openLoop(rate: 1000, offered: 950), cores: 2) == nil)
        #expect(TrialValidity.problem(Self.openLoop(rate: 1000, offered: 806), cores: 2) == nil)
        #expect(TrialValidity.problem(Self.openLoop(rate: 1000, offered: 800), cores: 2) != nil)
    }
}

extension TrialRecord {
    fileprivate func with(size: Int) -> TrialRecord {
        var copy = self
        copy.poolSize = size
        return copy
    }
}
