import PoolSizeModel
import Testing

/// The verdict logic of every probe, on fixed observations (no threads, no clocks).
@Suite struct ProbeVerdictTests {
    static func niceSamples(_ serial: [Int?], _ global: [Int?]) -> [NiceObservation.Sample] {
        zip(QoSTier.allCases, serial).map { NiceObservation.Sample(tier: $0, queue: .serial, nice: $1) }
            + zip(QoSTier.allCases, global).map { NiceObservation.Sample(tier: $0, queue: .global, nice: $1) }
    }

    static let designNice: [Int?] = [-2, -2, 0, 2, 10]
    static let unprivilegedNice: [Int?] = [0, 0, 0, 2, 10]

    @Test func niceHoldsWhenEveryTierRunsAtItsNice() {
        let result = NiceObservation(samples: Self.niceSamples(Self.designNice, Self.designNice), canLowerNice: true)
            .result()
        #expect(result.verdict == .holds)
        #expect(result.observed == "serial -2 -2 0 +2 +10; global -2 -2 0 +2 +10")
        #expect(result.expected == "user-interactive -2, user-initiated -2, default 0, utility +2, background +10")
        #expect(result.measurements.count == 10)
        #expect(result.measurements[0] == ProbeMeasurement("serial user-interactive", expected: "-2", observed: "-2"))
    }

    /// docs/platform.md: unprivileged, only utility and background differ; the claim says so.
    @Test func niceHoldsUnprivilegedAndSaysWhy() {
        let result = NiceObservation(
            samples: Self.niceSamples(Self.unprivilegedNice, Self.unprivilegedNice), canLowerNice: false
        ).result()
        #expect(result.verdict == .holds)
        #expect(result.explanation.contains("user-initiated and user-interactive did not take effect"))
        #expect(result.explanation.contains("CAP_SYS_NICE"))
    }

    @Test func niceDiffersWhenAPrivilegedProcessGetsNoNegativeNice() {
        let result = NiceObservation(
            samples: Self.niceSamples(Self.designNice, Self.unprivilegedNice), canLowerNice: true
        ).result()
        #expect(result.verdict == .differs)
        #expect(
            result.explanation
                == "global user-interactive ran at 0, not -2; global user-initiated ran at 0, not -2 (although this process may lower nice)"
        )
    }

    @Test func niceDiffersWhenAPositiveTierIsIgnored() {
        let result = NiceObservation(
            samples: Self.niceSamples([0, 0, 0, 0, 10], Self.unprivilegedNice), canLowerNice: false
        ).result()
        #expect(result.verdict == .differs)
        #expect(result.explanation == "serial utility ran at 0, not +2")
    }

    @Test func niceCannotTellWhenABlockNeverRan() {
        let result = NiceObservation(
            samples: Self.niceSamples(Self.designNice, [-2, -2, 0, 2, nil]), canLowerNice: true
        ).result()
        #expect(result.verdict == .cannotTell)
        #expect(result.observed == "serial -2 -2 0 +2 +10; global -2 -2 0 +2 ?")
        #expect(NiceObservation(samples: [], canLowerNice: true).result().verdict == .cannotTell)
    }

    @Test func serialThreads() {
        #expect(
            SerialThreadsObservation(
                queues: 32, started: 32, distinctThreads: 32, peakConcurrent: 32, waitedSeconds: 0.02
            ).result().verdict == .holds)
        let starved = SerialThreadsObservation(
            queues: 32, started: 4, distinctThreads: 4, peakConcurrent: 4, waitedSeconds: 3
        ).result()
        #expect(starved.verdict == .differs)
        #expect(starved.explanation.hasPrefix("only 4 threads served 32 blocked serial queues, so 28 tasks waited"))
        #expect(
            SerialThreadsObservation(queues: 32, started: 0, distinctThreads: 0, peakConcurrent: 0, waitedSeconds: 3)
                .result().verdict == .cannotTell)
    }

    static func ramp(_ threads: [Int], cores: Int = 2, tasks: Int = 32) -> GlobalRampObservation {
        GlobalRampObservation(
            cores: cores, tasks: tasks, taskMilliseconds: 50,
            checkpoints: zip([0.5, 1, 2, 3], threads).map { .init(seconds: $0, threads: $1, running: $1) })
    }

    @Test func rampAllowance() {
        let observation = Self.ramp([2, 3, 4, 5])
        #expect(observation.allowedThreads(at: 0.5) == 4)
        #expect(observation.allowedThreads(at: 1) == 4)
        #expect(observation.allowedThreads(at: 3) == 6)
    }

    /// docs/platform.md: about cores threads, one more per second.
    @Test func rampHoldsAtOneThreadPerSecond() {
        let result = Self.ramp([2, 3, 4, 5]).result()
        #expect(result.verdict == .holds)
        #expect(result.observed == "2 @ 0.5 s, 3 @ 1 s, 4 @ 2 s, 5 @ 3 s")
        #expect(
            result.measurements[3] == ProbeMeasurement("threads at 3 s", expected: "≤ 6", observed: "5 (5 running)"))
        #expect(Self.ramp([2, 2, 2, 2]).result().verdict == .holds)
    }

    @Test func rampDiffersWhenTheQueueGrowsFastOrExplodes() {
        let fast = Self.ramp([2, 8, 12, 16]).result()
        #expect(fast.verdict == .differs)
        #expect(fast.explanation.hasPrefix("8 threads after 1 s, more than cores + ~1.0/s allows (4)"))
        let explosion = Self.ramp([32, 32, 32, 32]).result()
        #expect(explosion.verdict == .differs)
        #expect(explosion.explanation.hasPrefix("the global queue gave every blocked task a thread (32 for 32 tasks)"))
        #expect(Self.ramp([0, 0, 0, 0]).result().verdict == .cannotTell)
        #expect(Self.ramp([]).result().verdict == .cannotTell)
    }

    @Test(arguments: [
        (ChildOutcome.timedOut(afterSeconds: 2), true, false, DeadlockObservation.Classification.hang, Verdict.holds),
        (.signaled(signal: 4), true, false, .trap, .holds),
        (.signaled(signal: 5), true, false, .trap, .holds),
        (.exited(code: 0), true, true, .completed, .differs),
        (.exited(code: 64), false, false, .inconclusive, .cannotTell),
        (.signaled(signal: 11), false, false, .inconclusive, .cannotTell),
        (.timedOut(afterSeconds: 2), false, false, .inconclusive, .cannotTell),
        (.failedToStart(reason: "no such file"), false, false, .inconclusive, .cannotTell),
        (.exited(code: 0), true, false, .inconclusive, .cannotTell),
    ])
    func deadlockClassification(
        outcome: ChildOutcome, reachedSync: Bool, syncReturned: Bool,
        classification: DeadlockObservation.Classification, verdict: Verdict
    ) {
        let observation = DeadlockObservation(
            outcome: outcome, reachedSync: reachedSync, syncReturned: syncReturned, watchdogSeconds: 2)
        #expect(observation.classification == classification)
        #expect(observation.result().verdict == verdict)
    }

    @Test func deadlockObservedLineNamesTheOutcome() {
        let trap = DeadlockObservation(
            outcome: .signaled(signal: 4), reachedSync: true, watchdogSeconds: 2,
            errorSummary: "crashed in __DISPATCH_WAIT_FOR_QUEUE__ (libdispatch.so)"
        ).result()
        #expect(
            trap.observed == "trap: killed by SIGILL (4) — \"crashed in __DISPATCH_WAIT_FOR_QUEUE__ (libdispatch.so)\"")
        let hang = DeadlockObservation(outcome: .timedOut(afterSeconds: 2), reachedSync: true, watchdogSeconds: 2)
            .result()
        #expect(hang.observed == "deadlock (hang): no exit within 2.0 s; killed by the watchdog")
        #expect(ChildOutcome.signaled(signal: 5).summary == "killed by SIGTRAP (5)")
        #expect(ChildOutcome.signaled(signal: 42).summary == "killed by signal 42 (42)")
    }

    @Test func roundRobin() {
        #expect(
            RoundRobinObservation(submitters: 4, submitted: 2000, countsPerQueue: Array(repeating: 250, count: 8))
                .result().verdict == .holds)
        let uneven = RoundRobinObservation(submitters: 4, submitted: 10, countsPerQueue: [4, 3, 3])
        #expect(uneven.allowedSpread == 1)
        #expect(uneven.result().verdict == .holds)
        #expect(uneven.result().expected == "3–4 tasks on each of 3 queues")
        let skewed = RoundRobinObservation(
            submitters: 4, submitted: 2000, countsPerQueue: [251, 249] + Array(repeating: 250, count: 6)
        ).result()
        #expect(skewed.verdict == .differs)
        #expect(skewed.explanation.hasPrefix("queue counts differ by 2, more than the 0 round-robin allows"))
        #expect(
            RoundRobinObservation(submitters: 4, submitted: 2000, countsPerQueue: Array(repeating: 200, count: 8))
                .result().verdict == .cannotTell)
    }

    @Test func semaphore() {
        #expect(
            SemaphoreObservation(count: 3, threads: 8, peakInside: 3, sectionsRun: 40, sectionsPlanned: 40).result()
                .verdict == .holds)
        #expect(
            SemaphoreObservation(count: 3, threads: 8, peakInside: 4, sectionsRun: 40, sectionsPlanned: 40).result()
                .verdict == .differs)
        let idle = SemaphoreObservation(count: 3, threads: 8, peakInside: 2, sectionsRun: 40, sectionsPlanned: 40)
            .result()
        #expect(idle.verdict == .cannotTell)
        #expect(idle.explanation == "the peak stayed at 2 below the count 3, so the cap was never put to the test")
        #expect(
            SemaphoreObservation(count: 3, threads: 8, peakInside: 3, sectionsRun: 12, sectionsPlanned: 40).result()
                .verdict == .cannotTell)
    }

    @Test func namesAndVerdictsAreStable() {
        #expect(
            ProbeName.allCases.map(\.rawValue) == [
                "nice", "serial-threads", "global-ramp", "deadlock", "round-robin", "semaphore",
            ])
        #expect(ProbeName.validNames == "nice, serial-threads, global-ramp, deadlock, round-robin, semaphore")
        #expect(Verdict.allCases.map(\.rawValue) == ["holds", "differs", "cannot tell"])
        let report = ProbeReport(results: [
            SemaphoreObservation(count: 3, threads: 8, peakInside: 3, sectionsRun: 40, sectionsPlanned: 40).result()
        ])
        #expect(report.tally.map(\.count) == [1, 0, 0])
    }
}
