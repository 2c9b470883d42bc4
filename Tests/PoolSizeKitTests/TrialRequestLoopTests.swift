import PoolSizeModel
import Testing

@testable import PoolSizeKit

/// A trial request carries its loop as a case: the closed loop's settings, or the open loop's
/// arrivals at the trial's rate; the plan's load decides once which one a trial gets.
@Suite struct TrialRequestLoopTests {
    static func plan(_ load: Load, sizes: SizeSelection = .explicit([2, 4])) -> SweepPlan {
        var plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: sizes, repetitions: 1, warmupTrials: 1, cores: 2,
            busyRetries: 0)
        plan.load = load
        return plan
    }

    static let settings = TrialSettings(durationNanoseconds: 40_000_000)
    static let queue = Combination(pool: .queuePool, qos: .default, primitive: .none)

    @Test func aClosedLoopTrialIsDrivenByItsSettings() {
        let trial = PlannedTrial(combination: Self.queue, size: 4, repetition: 1)
        let request = Self.plan(.closed).request(trial, index: 3, settings: Self.settings, taskNanoseconds: 2_000_000)
        #expect(request.loop == .closed(Self.settings))
        #expect(request.seed == Self.plan(.closed).seed &+ 3)
    }

    @Test func anOpenLoopTrialIsDrivenByTheArrivalsOfItsRate() {
        let plan = Self.plan(.open(ArrivalPlan(rates: [500], process: .uniform)))
        let trial = PlannedTrial(combination: Self.queue, size: 4, repetition: 1, rate: 500)
        let request = plan.request(trial, index: 0, settings: Self.settings, taskNanoseconds: 2_000_000)
        guard case let .open(open) = request.loop else {
            Issue.record("an open-loop trial got \(request.loop)")
            return
        }
        #expect(open.ratePerSecond == 500 && open.process == .uniform)
        // Warm-up is 10 task times, at least 200 ms; a pool that sizes itself gets its settling time.
        #expect(open.warmupNanoseconds == 200_000_000)
        var adaptive = trial
        adaptive.combination.pool = .adaptive
        let settling = plan.request(adaptive, index: 0, settings: Self.settings, taskNanoseconds: 2_000_000)
        guard case let .open(settled) = settling.loop else {
            Issue.record("an open-loop trial got \(settling.loop)")
            return
        }
        #expect(settled.warmupNanoseconds == OpenLoopTrial.settlingNanoseconds)
    }

    @Test func onlyTheClosedLoopSearchesForAKneeOrWidensAutoSizes() {
        var closed = Self.plan(.closed, sizes: .auto)
        closed.search = .adaptive
        var open = Self.plan(.open(ArrivalPlan(rates: [500])), sizes: .auto)
        open.search = .adaptive
        #expect(closed.runsAdaptiveSearch && closed.widensAutoSizes)
        #expect(!open.runsAdaptiveSearch && !open.widensAutoSizes)
        closed.search = .grid
        #expect(!closed.runsAdaptiveSearch && closed.widensAutoSizes)
    }

    @Test func anOpenLoopSweepRunsItsTrialsOpenAndItsLowLoadAndWarmUpClosed() throws {
        let trials = ScriptedOpenLoopTrials()
        let plan = Self.plan(.open(ArrivalPlan(rates: [300, 600], process: .uniform)))
        let result = try SweepRunner(measurer: trials, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: RecordingObserver())
        #expect(result.records.count == 4)
        #expect(result.records.filter(\.isOpenLoop).count == 4)
        let open = trials.requests.compactMap(\.openLoopTrial)
        #expect(open.map(\.ratePerSecond).sorted() == [300, 300, 600, 600])
        // The low-load rounds and the one warm-up trial are closed loops.
        let closed = trials.requests.filter { $0.openLoopTrial == nil }
        #expect(closed.count == trials.requests.count - 4)
        #expect(closed.contains { $0.lowLoad } && closed.contains { !$0.lowLoad && $0.size == 4 })
    }
}
