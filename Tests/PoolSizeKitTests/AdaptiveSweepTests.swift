import PoolSizeKit
import PoolSizeModel
import Testing

/// The runner driving the adaptive search, on scripted trials.
@Suite struct AdaptiveSweepTests {
    /// W/C = 1 (scripted) on 4 cores: the formula says 8, the curve flattens at 8.
    static func plan() -> SweepPlan {
        var plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .auto, repetitions: 3, warmupTrials: 0, cores: 4,
            busyRetries: 0)
        plan.search = .adaptive
        return plan
    }

    final class SearchObserver: SweepObserver {
        var records: [TrialRecord] = []
        var finished: (trials: Int, grid: Int)?
        func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {}
        func sweepWillRunTrial(_ index: Int, of total: Int, combination: Combination, poolSize: Int, repetition: Int) {}
        func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) { records.append(record) }
        func sweepFinishedSearch(trials: Int, gridTrials: Int) { finished = (trials, gridTrials) }
    }

    /// A server sweep's search stays within the driver's connections: past them a trial measures
    /// the driver (a search that bracketed to 128 with 64 in flight had fallen back on its largest
    /// valid size); with a load tool, whose connections are its own, it is not bounded.
    @Test func aServerSweepsSearchStaysWithinItsConnections() {
        var plan = Self.plan()
        let setup = ServerSetup(
            command: "srv {size}", url: "http://127.0.0.1:9/", connections: 16, readyTimeoutSeconds: 30)
        plan.target = .server(setup)
        let search = plan.sizeSearch(prediction: 40)
        #expect(search.upper == 16)
        #expect(search.simulate { Double(min($0, 40)) }.keys.allSatisfy { $0 <= 16 })
        var tool = setup
        tool.loadTool = "wrk http://127.0.0.1:9/ --parse wrk"
        plan.target = .server(tool)
        #expect(plan.sizeSearch(prediction: 40).upper > 16)
    }

    /// A server sweep's search is thrifty, each trial being a server restarted and loaded for
    /// seconds: from the formula's 20 and its double 40 (flat: no further up), down to 10 (the
    /// knee 20 had no size below it), then bisection to 1/8 of the knee's size: 15, 17 (20 − 17
    /// = 3 = one step at 20). The rules' 2, 3 and 5 lie below every size searched and are not
    /// measured.
    @Test func aServerSweepsSearchIsThrifty() {
        var plan = Self.plan()
        plan.cores = 2
        plan.repetitions = 1
        plan.target = .server(
            ServerSetup(command: "srv {size}", url: "http://127.0.0.1:9/", connections: 64, readyTimeoutSeconds: 30))
        let search = plan.sizeSearch(prediction: 20)
        #expect(search.chain == [1, 2, 5, 10, 20, 40, 64])
        let samples = search.simulate { Double(min($0 * 95, 1_800)) }
        #expect(samples.keys.sorted() == [10, 15, 17, 20, 40])
        // The same curve in this process's own pools: 1/16 steps, to 18 (95 × 18 = 0.95 × 1800).
        plan.target = .inProcess
        let own = plan.sizeSearch(prediction: 20).simulate { Double(min($0 * 95, 1_800)) }
        #expect(own.keys.sorted() == [10, 15, 17, 18, 20, 40])
    }

    /// A server sweep on 4 cores (the rules' sizes 4, 5 and 9) whose knee is 32, far past the
    /// formula's 8: the search walks up from 8, and the rule's 9, among the sizes it measured,
    /// gets a trial; 4 and 5, below every one, get none (the report says what 8 gave).
    @Test func theRulesSizesOutsideTheSearchAreNotMeasured() throws {
        var plan = Self.plan()
        plan.repetitions = 1
        plan.target = .server(
            ServerSetup(command: "srv {size}", url: "http://127.0.0.1:9/", connections: 128, readyTimeoutSeconds: 30))
        #expect(plan.ruleSizes == [4, 5, 9])
        // At most 3840/s: 4 cores allow 4000 at the scripted C of 1 ms.
        let trials = ScriptedTrials { Double(min($0, 32)) * 120 }
        let result = try SweepRunner(measurer: trials, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: SearchObserver())
        let sizes = Set(result.records.map(\.poolSize))
        #expect(sizes.isDisjoint(with: [4, 5]), "\(sizes.sorted())")
        #expect(sizes.contains(9) && sizes.contains(32) && sizes.min() == 8, "\(sizes.sorted())")
    }

    /// Twice the formula's size never gives a valid trial (4 cores allow 4000/s at the scripted
    /// C of 1 ms; 16 "gives" 5000): after its attempts the search goes on below the start and
    /// places the knee 8 with 4, 6 and 7 measured, where it once stopped with 8 alone.
    @Test func aSizeThatIsNeverValidIsSearchedAround() throws {
        let trials = ScriptedTrials { $0 == 16 ? 5000 : Double(min($0, 8)) * 400 }
        let result = try SweepRunner(measurer: trials, declaredTaskNanoseconds: 2_000_000).run(
            Self.plan(), observer: SearchObserver())
        let valid = Set(result.records.filter { $0.invalidReason == nil }.map(\.poolSize))
        #expect(valid == [4, 6, 7, 8], "\(valid.sorted())")
        #expect(result.records.filter { $0.poolSize == 16 }.count == 2 * 3 + 2)
    }

    @Test func adaptiveMeasuresFewerTrialsAndFindsTheKnee() throws {
        let observer = SearchObserver()
        let trials = ScriptedTrials { Double(min($0, 8)) * 500 }
        let result = try SweepRunner(measurer: trials, declaredTaskNanoseconds: 2_000_000).run(
            Self.plan(), observer: observer)
        let grid = SizeGrid.auto(prediction: 8, cores: 4).count * 3
        #expect(observer.finished?.trials == result.records.count)
        #expect(observer.finished?.grid == grid)
        #expect(result.records.count < grid)
        // 8 (the formula's), 16 (flat: stop); knee 8 with nothing below, so 4; bisect 6, then 7
        // (one step at 8 is 1).
        #expect(Set(result.records.map(\.poolSize)) == [4, 6, 7, 8, 16])
        // Repetitions are numbered per size from 1, and the decisive sizes have three.
        #expect(result.records.filter { $0.poolSize == 8 }.map(\.repetition).sorted() == [1, 2, 3])
        #expect(result.records.filter { $0.poolSize == 16 }.count == 1)
    }

    /// An interrupted adaptive run resumed from any prefix of its rows makes the same
    /// decisions: the same trials, with the same seeds, in the same order.
    @Test func aResumedSearchReplaysItsDecisions() throws {
        let curve: (Int) -> Double = { Double(min($0, 8)) * 500 + Double($0 % 3) }
        let full = ScriptedTrials(throughput: curve)
        let first = try SweepRunner(measurer: full, declaredTaskNanoseconds: 2_000_000).run(
            Self.plan(), observer: SearchObserver())
        let sweepRequests = full.requests.filter { !$0.lowLoad }
        for cut in [0, 3, 7, first.records.count - 1] {
            let again = ScriptedTrials(throughput: curve)
            let observer = SearchObserver()
            let resumed = try SweepRunner(measurer: again, declaredTaskNanoseconds: 2_000_000).run(
                Self.plan(), observer: observer, resume: (first.lowLoad, Array(first.records.prefix(cut))))
            #expect(
                resumed.records.map { "\($0.poolSize)/\($0.repetition)" }
                    == first.records.map { "\($0.poolSize)/\($0.repetition)" })
            #expect(observer.records.count == first.records.count - cut)
            #expect(again.requests.map(\.seed) == Array(sweepRequests.map(\.seed).dropFirst(cut)))
        }
    }

    /// A machine busy all along: the search's batches share one retry budget, a quarter of the
    /// trials (as a grid's), instead of two retries per batch.
    @Test func retriesAreSharedAcrossTheSearchsBatches() throws {
        var plan = Self.plan()
        plan.busyRetries = 2
        let observer = RecordingObserver()
        _ = try SweepRunner(
            measurer: ScriptedTrials(otherLoad: 0.5) { Double(min($0, 8)) * 500 }, declaredTaskNanoseconds: 2_000_000
        ).run(plan, observer: observer)
        #expect(observer.retries == max(2, observer.records.count / 4))
    }

    /// With an explicit list and `--search adaptive` only listed sizes are measured.
    @Test func anExplicitListBoundsTheSearch() throws {
        var plan = Self.plan()
        plan.sizes = .explicit([2, 4, 6, 8, 10, 12, 14, 16])
        let result = try SweepRunner(
            measurer: ScriptedTrials { Double(min($0, 8)) * 500 }, declaredTaskNanoseconds: 2_000_000
        ).run(plan, observer: SearchObserver())
        #expect(Set(result.records.map(\.poolSize)).isSubset(of: [2, 4, 6, 8, 10, 12, 14, 16]))
        #expect(result.records.count < 8 * 3)
    }
}

/// The time model and `--budget`, on the built-in io workload (C 1 ms, W 15 ms, 0.6 s trials).
@Suite struct SweepBudgetTests {
    static func plan(cores: Int = 2) throws -> SweepPlan {
        var plan = SweepPlan(
            runID: "r", spec: try WorkloadLoader.load("io"), sizes: .auto, repetitions: 3, warmupTrials: 1, cores: cores
        )
        plan.search = .adaptive
        return plan
    }

    /// Worked from the model: a trial is 0.6 s + 16 ms drain + 30 ms overhead = 0.646 s; the
    /// low-load phase 2 rounds of (0.5 + 0.016 + 0.03) s (31 tasks a round, 40 needed) = 1.092 s;
    /// the warm-up 0.3 + 0.016 + 0.03 = 0.346 s; plus 1.5 s fixed.
    @Test func theModelOfTheDefaultIoSweep() throws {
        let model = SweepTimeModel(plan: try Self.plan())
        #expect(abs(model.secondsPerTrial - 0.646) < 1e-9)
        #expect(abs(model.lowLoadSeconds - 1.092) < 1e-9)
        #expect(abs(model.seconds(trials: 10, warmups: 1) - (1.5 + 1.092 + 0.346 + 6.46)) < 1e-9)
    }

    /// With trials that close once their throughput is known (a margin of 2%, the command
    /// line's default): an io trial holds its 0.12 s warm-up (a fifth of 0.6 s), then is judged
    /// every 20 ms (a twentieth of the window so far past 0.4 s) until its 300 completions and its
    /// shortest window (8 tasks of 16 ms, 0.128 s) have passed, then drains 16 ms and costs 30 ms.
    /// - 1,834 tasks/s: 300 completions in 0.164 s, judged at 0.18 s: 0.12 + 0.18 + 0.046 = 0.346 s.
    /// - 5,000 tasks/s: 300 in 0.06 s, so the shortest window decides, judged at 0.14 s: 0.306 s.
    /// - 700 tasks/s: 300 in 0.4286 s; judged at 0.42 s, then 21 ms later: 0.12 + 0.441 + 0.046.
    /// - 62.5 tasks/s (one queue): 300 take 4.8 s, past the 0.48 s window: the whole 0.646 s.
    /// A jittered task's spread is not known before the sweep: its trials are planned whole.
    @Test func aTrialIsPlannedToCloseOnceItsThroughputIsKnown() throws {
        var plan = try Self.plan()
        try plan.setTrialMargin(nil)
        #expect(plan.trialMargin == 0.02)
        let model = SweepTimeModel(plan: plan)
        #expect(abs(model.warmupSeconds - 0.12) < 1e-9)
        #expect(abs(model.expectedSecondsPerTrial(throughputPerSecond: 1834) - 0.346) < 1e-9)
        #expect(abs(model.expectedSecondsPerTrial(throughputPerSecond: 5000) - 0.306) < 1e-9)
        #expect(abs(model.expectedSecondsPerTrial(throughputPerSecond: 700) - 0.607) < 1e-6)
        #expect(abs(model.expectedSecondsPerTrial(throughputPerSecond: 62.5) - 0.646) < 1e-9)
        var jittered = plan
        jittered.spec.jitter = .exponential
        #expect(abs(SweepTimeModel(plan: jittered).expectedSecondsPerTrial(throughputPerSecond: 1834) - 0.646) < 1e-9)
        var whole = try Self.plan()
        whole.trialMilliseconds = 600
        try whole.setTrialMargin(nil)
        #expect(whole.trialMargin == nil)
        #expect(abs(SweepTimeModel(plan: whole).expectedSecondsPerTrial(throughputPerSecond: 1834) - 0.646) < 1e-9)
    }

    /// A spec whose wait steps up to 2 s from 0.3 s into each trial: the drain waits for tasks of
    /// that phase, 2.001 s, so a trial is 0.6 + 2.001 + 0.03 = 2.631 s (it was 0.646 s, as if the
    /// phase did not exist); the warm-up's 0.3 s window closes as the phase begins, so it drains
    /// 2.001 s too: 0.3 + 2.001 + 0.03 = 2.331 s; and the bound's longest task is 2.001 s.
    @Test func phasesLengthenTheDrain() throws {
        var plan = try Self.plan()
        plan.spec.phases = [WorkloadPhase(startMilliseconds: 300, cpuMicroseconds: 1000, waitMicroseconds: 2_000_000)]
        let model = SweepTimeModel(plan: plan)
        #expect(abs(model.drainTaskSeconds - 2.001) < 1e-9)
        #expect(abs(model.longestTaskSeconds - 2.001) < 1e-9)
        #expect(abs(model.secondsPerTrial - 2.631) < 1e-9)
        #expect(abs(model.seconds(trials: 10, warmups: 1) - (1.5 + 1.092 + 2.331 + 26.31)) < 1e-9)
        #expect(plan.estimate.longestTaskSeconds == 2.001)
    }

    @Test func aGenerousBudgetKeepsThePlan() throws {
        let fitted = try Self.plan().fitting(budgetSeconds: 600)
        #expect(fitted.repetitions == 3)
        #expect(fitted.trialMilliseconds == 600)
        #expect(fitted.search == .adaptive)
    }

    @Test func aTightBudgetTradesRepetitionsAndTrialLength() throws {
        let plan = try Self.plan()
        let full = plan.estimate.seconds
        let fitted = try plan.fitting(budgetSeconds: full * 0.7)
        #expect(fitted.estimate.seconds <= full * 0.7)
        #expect(fitted.repetitions < 3 || (fitted.trialMilliseconds ?? 600) < 600)
    }

    @Test func aBudgetBelowTheMinimumIsRefusedNamingIt() throws {
        var shortest = try Self.plan()
        shortest.repetitions = 1
        shortest.trialMilliseconds = 100
        let minimum = shortest.estimate.seconds
        #expect(
            throws: PoolSizeError.invalidParameter(
                .budgetSeconds,
                message:
                    "2s cannot hold even the shortest sweep of this workload (adaptive search, 1 repetition, 100 ms trials: about \(Int(minimum.rounded(.up))) s); give at least \(Int(minimum.rounded(.up)))s"
            )
        ) {
            try Self.plan().fitting(budgetSeconds: 2)
        }
    }

    @Test func estimateCountsExpectedAndMaximumTrials() throws {
        let estimate = try Self.plan().estimate
        #expect(estimate.maximumTrials! >= estimate.trials)
        #expect(estimate.gridTrials == SizeGrid.auto(prediction: 32, cores: 2).count * 3)
        #expect(estimate.trials - 1 < estimate.gridTrials)
        #expect(estimate.longWarning == nil)
    }
}

/// The dry run's "at most" for a task of unknown length (`--http`, `--exec`), worked by hand.
@Suite struct SweepBoundTests {
    /// A request of unknown length (the spec declares no times), 1 s trials, 3 repetitions,
    /// one warm-up, no busy retries.
    static func plan(busyRetries: Int = 0) -> SweepPlan {
        let spec = WorkloadSpec(
            name: "http-host", description: "HTTP", cpuMicroseconds: 0, waitMicroseconds: 0, trialMilliseconds: 1000)
        var plan = SweepPlan(
            runID: "r", spec: spec, sizes: .auto, repetitions: 3, warmupTrials: 1, cores: 2,
            busyRetries: busyRetries)
        plan.search = .adaptive
        return plan
    }

    /// W/C unknown: the search may walk a chain of up to 14 sizes (13 + 1: a start between two
    /// powers of two) and bisect 13 times (4096 = 2¹²: 13 bits): 27 sizes × 3 = 81 trials. Each at
    /// 4096 queues: the 1 s window, 4096 × 100 µs to start them, a drain of 2 × the 2 s task
    /// timeout, 30 ms overhead: 5.4396 s. The warm-up: 0.3 + 0.4096 + 4 + 0.03 = 4.7396 s.
    /// The low-load phase: 6 s, then one more 0.5 s round, its task of up to 2 s and 30 ms:
    /// 8.53 s. With the fixed 1.5 s: 1.5 + 8.53 + 4.7396 + 81 × 5.4396 = 455.3772 s.
    @Test func anUnknownTaskIsBoundedByTheWidestSearchAndTheTimeout() throws {
        let estimate = Self.plan().estimate(taskTimeoutSeconds: 2)
        #expect(estimate.maximumTrials == 82)
        #expect(estimate.maximumQueues == 4096)
        #expect(estimate.longestTaskSeconds == 2)
        #expect(try #require(estimate.boundTaskSeconds) == 1.0 / 15)
        #expect(abs(try #require(estimate.maximumSeconds) - 455.3772) < 1e-9)
        // 4096 threads of 64 KiB: the memory bound holds the widest pool too.
        #expect(estimate.bytes >= 4096 * 64 * 1024)
        // The plan: the old bound assumed W/C 0 (the bracket to 32) and 0 s tasks.
        #expect(try #require(estimate.maximumSeconds) > 40)
        #expect(
            estimate.plan.hasSuffix(
                "at most: the low-load phase, 1 warm-up and 81 trials (busy retries included) at up to 4096 queues, each its window, the start of its queues and a drain of up to 4 s (two tasks a queue that may run to `taskTimeout` 2 s): 8 min; the task's length is measured first: if one takes longer than 66.7 ms alone, every trial lengthens to 15 tasks"
            ), "\(estimate.plan)")
    }

    /// Busy retries come from a budget of a quarter of the trials: 81 + 20 = 101 measured.
    @Test func busyRetriesAreInTheBound() {
        let estimate = Self.plan(busyRetries: 2).estimate(taskTimeoutSeconds: 2)
        #expect(estimate.maximumTrials == 102)
    }

    /// Without a timeout the drain timeout (60 s) bounds a drain: 2 × 60 s capped at 60 s.
    @Test func withoutATimeoutTheDrainTimeoutBounds() throws {
        let estimate = Self.plan().estimate(taskTimeoutSeconds: nil)
        #expect(estimate.longestTaskSeconds == 60)
        let perTrial = 1 + 0.4096 + 60 + 0.03
        let expected = 1.5 + (6 + 0.5 + 60 + 0.03) + (0.3 + 0.4096 + 60 + 0.03) + 81 * perTrial
        #expect(abs(try #require(estimate.maximumSeconds) - expected) < 1e-9)
    }
}
