import Foundation
@testable import PoolSizeKit
import PoolSizeModel
import Testing

/// Sleeps `microseconds` on a real pool thread.
struct SleepingWorkload: Workload {
    var microseconds: Double
    func run(task index: UInt64) { SleepWaiter().wait(microseconds: microseconds) }
}

/// The open loop's arithmetic on a simulated pool (`SimulatedPool`): every figure is worked
/// out by hand, and none depends on how fast the machine is. How closely the real dispatcher
/// keeps time is measured by scripts/benchmark-open-loop.sh.
@Suite struct OpenLoopRunnerTests {
    @Test func poissonGapsAverageOneOverTheRateAndAreSeeded() {
        var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
        let gaps = (0..<200_000).map { _ in ArrivalSchedule.gap(.poisson, rate: 1000, rng: &a) }
        let again = (0..<200_000).map { _ in ArrivalSchedule.gap(.poisson, rate: 1000, rng: &b) }
        #expect(gaps == again)
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        // Exponential with mean 1 ms: the sample mean of 200,000 is within 1% (sd 0.22%).
        #expect(abs(mean - 1_000_000) < 10_000)
        // The standard deviation of an exponential equals its mean.
        let sd = (gaps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(gaps.count)).squareRoot()
        #expect(abs(sd / mean - 1) < 0.02)
        var c = SeededGenerator(seed: 1)
        #expect(ArrivalSchedule.gap(.uniform, rate: 250, rng: &c) == 4_000_000)
    }

    /// Runs `trial` on a simulated pool of `queues` queues whose task `i` waits `task(i)` ns.
    static func simulate(
        queues: Int, trial: OpenLoopTrial, seed: UInt64 = 1, submitNanoseconds: UInt64 = 0,
        task: @escaping @Sendable (UInt64) -> UInt64
    ) throws -> (measurement: TrialMeasurement, t0: UInt64) {
        let pool = SimulatedPool(size: queues, submitNanoseconds: submitNanoseconds)
        // The runner's first arrival counts from 1 ms after it starts.
        let t0 = pool.now + 1_000_000
        let m = try OpenLoopRunner(clocks: pool).run(
            pool: pool, workload: SimulatedWork(pool: pool, nanoseconds: task), trial: trial, seed: seed)
        return (m, t0)
    }

    static let ms: UInt64 = 1_000_000

    /// 200/s evenly spaced (every 5 ms) of 2 ms tasks on 4 queues, window 100–600 ms: arrivals 20
    /// to 119 (t0 + 5k ms) fall in it, each starts on arrival and ends 2 ms later, before the next.
    @Test func aPoolWithRoomCarriesEveryArrival() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 200, process: .uniform, warmupNanoseconds: 100 * Self.ms,
            windowNanoseconds: 500 * Self.ms, tailNanoseconds: 100 * Self.ms)
        let (m, t0) = try Self.simulate(queues: 4, trial: trial) { _ in 2 * Self.ms }
        #expect(m.windowStart == t0 + 100 * Self.ms)
        #expect(m.windowEnd == t0 + 600 * Self.ms)
        let raw = try #require(m.openLoop)
        #expect(raw.arrivalsInWindow == 100)
        #expect(raw.unfinished == 0)
        #expect(raw.latencies == Array(repeating: 2 * Self.ms, count: 100))
        #expect(raw.backlog == Array(repeating: 0, count: 100))
        #expect(raw.dispatchLags == Array(repeating: 0, count: 100))
        let metrics = TrialMetrics(m, cores: 2)
        let figures = try #require(metrics.openLoop)
        #expect(figures.stable)
        #expect(figures.arrivalRate == 200)
        #expect(figures.offeredPerSecond == 200)
        #expect(figures.achievedPerSecond == 200)
        #expect(figures.backlogMax == 0)
        #expect(metrics.tasks == 100)
        #expect(metrics.latency.p50 == 2_000)
        #expect(metrics.latency.max == 2_000)
    }

    /// 250/s evenly spaced (every 4 ms) on one queue of 10 ms tasks, which carries 100/s. Task i
    /// (arrival k = i + 1 at t0 + 4k ms) runs from 4 + 10i to 14 + 10i ms. The window is
    /// 50–450 ms: arrivals 13–112 (indices 12–111); by the stop at 550 ms tasks 0–54 have
    /// started, so 43 of the window's arrivals finished and 57 did not.
    @Test func aPoolThatCannotKeepUpIsUnstableAndItsBacklogGrows() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 250, process: .uniform, warmupNanoseconds: 50 * Self.ms,
            windowNanoseconds: 400 * Self.ms, tailNanoseconds: 100 * Self.ms)
        let (m, _) = try Self.simulate(queues: 1, trial: trial) { _ in 10 * Self.ms }
        let raw = try #require(m.openLoop)
        #expect(raw.arrivalsInWindow == 100)
        #expect(raw.unfinished == 57)
        // Finished: end − arrival = (14 + 10i) − 4(i + 1) ms; not finished: the stop − arrival.
        let latencies = (12...111).map { i in
            i <= 54 ? (10 + 6 * UInt64(i)) * Self.ms : (550 - 4 * (UInt64(i) + 1)) * Self.ms
        }
        #expect(raw.latencies == latencies)
        // At arrival k, k − 1 arrived before it, and the tasks started by then count as done.
        let backlog = (13...112).map { k in (k - 1) - ((4 * k - 4) / 10 + 1) }
        #expect(raw.backlog == backlog)
        #expect(raw.backlog.last == 66)
        let figures = try #require(TrialMetrics(m, cores: 2).openLoop)
        #expect(!figures.stable)
        #expect(figures.offeredPerSecond == 250)
        // Tasks 5–43 whole in the window, 4 and 44 by 0.4 and 0.6: 40 tasks in 0.4 s.
        #expect(abs(figures.achievedPerSecond - 100) < 1e-9)
        #expect(figures.backlogMax == 66)
        #expect(raw.backlogGrowth > 40)
    }

    /// One queue; arrival 0 (at 20 ms) waits 200 ms, the rest 1 ms; one arrives every 20 ms.
    /// The ten that arrive during the stall (40–220 ms) run one after another from 220 ms, so
    /// task i (1–10) ends at 220 + i ms: latency 200 − 19i ms, though each ran for 1 ms (a
    /// closed loop would never have submitted them).
    @Test func latencyCountsFromTheIntendedArrivalSoAStallShows() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 50, process: .uniform, warmupNanoseconds: 0, windowNanoseconds: 600 * Self.ms,
            tailNanoseconds: 300 * Self.ms)
        let (m, _) = try Self.simulate(queues: 1, trial: trial) { $0 == 0 ? 200 * Self.ms : Self.ms }
        let raw = try #require(m.openLoop)
        // Arrivals at 20, 40, …, 580 ms are the window's 29.
        #expect(raw.arrivalsInWindow == 29)
        let expected =
            [200 * Self.ms] + (1...10).map { (200 - 19 * UInt64($0)) * Self.ms }
            + Array(
                repeating: Self.ms, count: 18)
        #expect(raw.latencies == expected)
        #expect(raw.latencies.filter { $0 >= 100 * Self.ms }.count == 6)
        // 44 arrivals by the stop at 900 ms, all run; all but the stalled one took 1 ms.
        #expect(m.samples.count == 44)
        #expect(m.samples.filter { $0.wallNanoseconds < 50 * Self.ms }.count == 43)
        #expect(TrialMetrics(m, cores: 2).latency.max == 200_000)
    }

    /// 400/s (every 2.5 ms) of 20 ms tasks on one queue; the trial stops at 250 ms. Task i starts
    /// at 2.5 + 20i ms, so tasks 0–12 ran; the other 86 arrivals were still queued and never
    /// ran. The window (0–200 ms) holds arrivals 1–79, of which 66 did not finish.
    @Test func tasksStillQueuedWhenTheTrialStopsAreNotRun() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 400, process: .uniform, warmupNanoseconds: 0, windowNanoseconds: 200 * Self.ms,
            tailNanoseconds: 50 * Self.ms)
        let (m, _) = try Self.simulate(queues: 1, trial: trial) { _ in 20 * Self.ms }
        let raw = try #require(m.openLoop)
        #expect(raw.arrivalsInWindow == 79)
        #expect(raw.unfinished == 66)
        #expect(m.samples.count == 13)
    }

    /// Poisson arrivals are drawn from the seed: the same seed gives the same trial, and the
    /// window holds about rate × window arrivals.
    @Test func poissonArrivalsAreSeeded() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 1000, process: .poisson, warmupNanoseconds: 0, windowNanoseconds: 2_000 * Self.ms,
            tailNanoseconds: 10 * Self.ms)
        let a = try Self.simulate(queues: 2, trial: trial, seed: 9) { _ in 100_000 }.measurement
        let b = try Self.simulate(queues: 2, trial: trial, seed: 9) { _ in 100_000 }.measurement
        let c = try Self.simulate(queues: 2, trial: trial, seed: 10) { _ in 100_000 }.measurement
        #expect(a.openLoop == b.openLoop)
        #expect(a.openLoop != c.openLoop)
        // 2,000 expected, standard deviation √2000 ≈ 45: within 5 of them.
        let arrivals = try #require(a.openLoop).arrivalsInWindow
        #expect((1_775...2_225).contains(arrivals), "\(arrivals) arrivals")
    }

    /// The in-process loop's window holds exactly the arrivals the seeded schedule puts in it
    /// (`ArrivalSchedule`, what the server's driver draws from the same seed), on a simulated
    /// pool whose clock moves only when the runner sleeps.
    @Test func theWindowHoldsTheSeededSchedulesArrivals() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 300, process: .poisson, warmupNanoseconds: 100 * Self.ms, windowNanoseconds: 500 * Self.ms,
            tailNanoseconds: 100 * Self.ms)
        let seed = ArrivalSchedule.seed(forTrial: 17)
        var schedule = ArrivalSchedule(trial, seed: seed, start: 0)
        var expected = 0
        while true {
            let at = schedule.next()
            if at >= 600 * Self.ms { break }
            if at >= 100 * Self.ms { expected += 1 }
        }
        let (m, _) = try Self.simulate(queues: 4, trial: trial, seed: seed) { _ in Self.ms }
        #expect(try #require(m.openLoop).arrivalsInWindow == expected)
        #expect((120...180).contains(expected), "\(expected) arrivals")
    }

    /// The conditions an open loop is judged against travel with its phases.
    @Test func theObjectiveTravelsWithTheTrial() {
        let t = OpenLoopTrial.forTasks(
            ofNanoseconds: 16_000_000, rate: 1000, process: .poisson, trialNanoseconds: 600_000_000,
            userSetTrial: false, latencySLOMicroseconds: 40_000)
        #expect(t.latencySLOMicroseconds == 40_000)
    }

    @Test func defaultPhasesHoldTwoThousandArrivals() {
        let t = OpenLoopTrial.forTasks(
            ofNanoseconds: 16_000_000, rate: 1000, process: .poisson, trialNanoseconds: 600_000_000,
            userSetTrial: false, latencySLOMicroseconds: 40_000)
        #expect(t.windowNanoseconds == 2_000_000_000)
        #expect(t.warmupNanoseconds == 200_000_000)
        #expect(t.tailNanoseconds == 100_000_000)
        let slow = OpenLoopTrial.forTasks(
            ofNanoseconds: 16_000_000, rate: 10, process: .poisson, trialNanoseconds: 600_000_000, userSetTrial: false,
            latencySLOMicroseconds: 2_000_000)
        #expect(slow.windowNanoseconds == 10_000_000_000)
        #expect(slow.tailNanoseconds == 4_000_000_000)
        let set = OpenLoopTrial.forTasks(
            ofNanoseconds: 16_000_000, rate: 10, process: .uniform, trialNanoseconds: 300_000_000, userSetTrial: true,
            latencySLOMicroseconds: nil)
        #expect(set.windowNanoseconds == 300_000_000)
    }
}

/// Issue 24, case 2: at a rate the dispatcher cannot offer, the trial measured another rate
/// (offered 0/s in the window, p99 0 µs, "stable", and a confident recommendation before).
/// From the runner's own figures to the record the sweep keeps: the trial is invalid, and
/// says why.
@Suite struct DispatcherShortfallTests {
    @Test func aDispatcherThatFallsBehindMakesTheTrialInvalid() throws {
        // 2000/s asked (every 0.5 ms) of a dispatcher whose every hand-over takes 2 ms: after k
        // arrivals it is at 0.5 + 2k ms. The window opens when it reaches arrival 40 (20 ms), at
        // 78.5 ms, and closes at arrival 440 (220 ms), at 878.5 ms; the arrivals stop at 240 ms.
        // Arrivals 157–479 (78.5–239.5 ms) fall in those 800 ms: 323, or 403.75/s.
        let trial = OpenLoopTrial(
            ratePerSecond: 2000, process: .uniform, warmupNanoseconds: 20_000_000, windowNanoseconds: 200_000_000,
            tailNanoseconds: 20_000_000)
        let (m, _) = try OpenLoopRunnerTests.simulate(
            queues: 2, trial: trial, seed: 5, submitNanoseconds: 2 * OpenLoopRunnerTests.ms
        ) { _ in 100_000 }
        let metrics = TrialMetrics(m, cores: 2)
        let figures = try #require(metrics.openLoop)
        #expect(metrics.wallSeconds == 0.8)
        #expect(abs(figures.offeredPerSecond - 403.75) < 1e-9, "offered \(figures.offeredPerSecond)/s")
        let plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .explicit([2]), repetitions: 1, warmupTrials: 0, cores: 2,
            busyRetries: 0)
        let record = TrialRecord(
            plan: plan, combination: Combination(pool: .queuePool, qos: .default, primitive: .none), poolSize: 2,
            repetition: 1, metrics: metrics, integrity: nil)
        let reason = try #require(TrialValidity.problem(record, cores: 2))
        #expect(
            reason
                == "the dispatcher offered 404/s of the 2000/s asked: this machine cannot hand tasks to a pool that fast, so the trial did not measure that rate (lower the arrival rate)"
        )
        #expect(!TrialValidity.mayPassWhenLonger(record))
    }
}
