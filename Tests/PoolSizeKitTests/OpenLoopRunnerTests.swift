import Foundation
@testable import PoolSizeKit
import PoolSizeModel
import Testing

/// Sleeps `microseconds`; task `slow` (if any) sleeps `slowMicroseconds` instead.
struct SleepingWorkload: Workload {
    var microseconds: Double
    var slow: UInt64? = nil
    var slowMicroseconds: Double = 0
    func run(task index: UInt64) {
        SleepWaiter().wait(microseconds: index == slow ? slowMicroseconds : microseconds)
    }
}

@Suite(.serialized) struct OpenLoopRunnerTests {
    @Test func poissonGapsAverageOneOverTheRateAndAreSeeded() {
        var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
        let gaps = (0..<200_000).map { _ in OpenLoopRunner.gap(.poisson, rate: 1000, rng: &a) }
        let again = (0..<200_000).map { _ in OpenLoopRunner.gap(.poisson, rate: 1000, rng: &b) }
        #expect(gaps == again)
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        // Exponential with mean 1 ms: the sample mean of 200,000 is within 1% (sd 0.22%).
        #expect(abs(mean - 1_000_000) < 10_000)
        // The standard deviation of an exponential equals its mean.
        let sd = (gaps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(gaps.count)).squareRoot()
        #expect(abs(sd / mean - 1) < 0.02)
        var c = SeededGenerator(seed: 1)
        #expect(OpenLoopRunner.gap(.uniform, rate: 250, rng: &c) == 4_000_000)
    }

    @Test func aPoolWithRoomCarriesEveryArrival() throws {
        // 200/s of 2 ms sleeps on 4 queues: 0.4 queues busy on average; far from full however slow the machine.
        let trial = OpenLoopTrial(
            ratePerSecond: 200, process: .uniform, warmupNanoseconds: 100_000_000, windowNanoseconds: 500_000_000,
            tailNanoseconds: 100_000_000)
        let pool = QueuePool(size: 4)
        let m = try OpenLoopRunner().run(
            pool: pool, workload: SleepingWorkload(microseconds: 2_000), trial: trial, seed: 3)
        pool.shutdown()
        let raw = try #require(m.openLoop)
        // Uniform arrivals every 5 ms: 100 in a 500 ms window, one either way at its edges.
        #expect((99...101).contains(raw.arrivalsInWindow))
        #expect(raw.unfinished == 0)
        #expect(raw.latencies.count == raw.arrivalsInWindow)
        // Every latency holds the task's own 2 ms sleep.
        #expect(raw.latencies.allSatisfy { $0 >= 2_000_000 })
        let metrics = TrialMetrics(m, cores: 2)
        let figures = try #require(metrics.openLoop)
        #expect(figures.stable)
        #expect(figures.arrivalRate == 200)
        #expect(abs(figures.offeredPerSecond - 200) <= 4)
        #expect(metrics.latency.p50 >= 2_000)
        #expect(metrics.peakConcurrency <= 4)
    }

    @Test func aPoolThatCannotKeepUpIsUnstableAndItsBacklogGrows() throws {
        // One queue of 10 ms tasks carries at most 100/s; 300/s arrive.
        let trial = OpenLoopTrial(
            ratePerSecond: 300, process: .poisson, warmupNanoseconds: 50_000_000, windowNanoseconds: 400_000_000,
            tailNanoseconds: 100_000_000)
        let pool = QueuePool(size: 1)
        let m = try OpenLoopRunner().run(
            pool: pool, workload: SleepingWorkload(microseconds: 10_000), trial: trial, seed: 11)
        pool.shutdown()
        let raw = try #require(m.openLoop)
        #expect(raw.backlogGrowth > 10)
        #expect(raw.unfinished > 0)
        let figures = try #require(TrialMetrics(m, cores: 2).openLoop)
        #expect(!figures.stable)
        #expect(figures.achievedPerSecond < 0.5 * figures.offeredPerSecond)
        #expect(figures.backlogMax > 20)
    }

    @Test func latencyCountsFromTheIntendedArrivalSoAStallShows() throws {
        // One queue; arrival 0 sleeps 200 ms, the rest 1 ms; every 20 ms another arrives. The
        // arrivals queued behind the stall wait for it: their latency holds the wait even though
        // each ran for 1 ms (a closed loop would never have submitted them).
        let trial = OpenLoopTrial(
            ratePerSecond: 50, process: .uniform, warmupNanoseconds: 0, windowNanoseconds: 600_000_000,
            tailNanoseconds: 300_000_000)
        let pool = QueuePool(size: 1)
        let m = try OpenLoopRunner().run(
            pool: pool, workload: SleepingWorkload(microseconds: 1_000, slow: 0, slowMicroseconds: 200_000),
            trial: trial, seed: 1)
        pool.shutdown()
        let raw = try #require(m.openLoop)
        let delayed = raw.latencies.filter { $0 >= 100_000_000 }
        // Arrivals at 20, 40, 60, 80 ms (and the stalled one itself) end after 200 ms.
        #expect(delayed.count >= 5)
        #expect(m.samples.filter { $0.wallNanoseconds < 50_000_000 }.count >= 20)
        #expect(TrialMetrics(m, cores: 2).latency.max >= 190_000)
    }

    @Test func tasksStillQueuedWhenTheTrialStopsAreNotRun() throws {
        let trial = OpenLoopTrial(
            ratePerSecond: 400, process: .uniform, warmupNanoseconds: 0, windowNanoseconds: 200_000_000,
            tailNanoseconds: 50_000_000)
        let pool = QueuePool(size: 1)
        let m = try OpenLoopRunner().run(
            pool: pool, workload: SleepingWorkload(microseconds: 20_000), trial: trial, seed: 2)
        pool.shutdown()
        // 100 arrivals of 20 ms on one queue would take 2 s to drain; the trial ends at its tail,
        // so most are still queued and few ran.
        let raw = try #require(m.openLoop)
        #expect(raw.unfinished > 50)
        #expect(m.samples.count < 20)
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

/// A pool whose `submit` takes 2 ms: its dispatcher hands over at most 500 tasks a second on
/// any machine, as a machine does that cannot dispatch the rate asked.
struct SlowSubmitPool: WorkerPool {
    let inner: QueuePool
    var kind: PoolKind { inner.kind }
    var size: Int { inner.size }
    func submit(_ work: @escaping @Sendable () -> Void) {
        SleepWaiter().wait(microseconds: 2_000)
        inner.submit(work)
    }
    func shutdown() { inner.shutdown() }
}

/// Issue 24, case 2: at a rate the dispatcher cannot offer, the trial measured another rate
/// (offered 0/s in the window, p99 0 µs, "stable", and a confident recommendation before).
/// From the runner's own figures to the record the sweep keeps: the trial is invalid, and
/// says why.
@Suite struct DispatcherShortfallTests {
    @Test func aDispatcherThatFallsBehindMakesTheTrialInvalid() throws {
        // 2000/s asked: 400 arrivals in the 200 ms window, of which at most 100 can be handed over.
        let trial = OpenLoopTrial(
            ratePerSecond: 2000, process: .uniform, warmupNanoseconds: 20_000_000, windowNanoseconds: 200_000_000,
            tailNanoseconds: 20_000_000)
        let pool = SlowSubmitPool(inner: QueuePool(size: 2))
        let m = try OpenLoopRunner().run(
            pool: pool, workload: SleepingWorkload(microseconds: 100), trial: trial, seed: 5)
        pool.shutdown()
        let metrics = TrialMetrics(m, cores: 2)
        let figures = try #require(metrics.openLoop)
        #expect(figures.offeredPerSecond < 0.75 * 2000, "offered \(figures.offeredPerSecond)/s")
        let plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .explicit([2]), repetitions: 1, warmupTrials: 0, cores: 2,
            busyRetries: 0)
        let record = TrialRecord(
            plan: plan, combination: Combination(pool: .queuePool, qos: .default, primitive: .none), poolSize: 2,
            repetition: 1, metrics: metrics, integrity: nil)
        let reason = try #require(TrialValidity.problem(record, cores: 2))
        #expect(reason.hasPrefix("the dispatcher offered "), "\(reason)")
        #expect(
            reason.hasSuffix(
                " of the 2000/s asked: this machine cannot hand tasks to a pool that fast, so the trial did not measure that rate (lower the arrival rate)"
            ), "\(reason)")
        #expect(!TrialValidity.mayPassWhenLonger(record))
    }
}
