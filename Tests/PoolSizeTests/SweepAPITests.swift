import Foundation
import PoolSize
import Synchronization
import Testing

/// Builds the standard pools and counts what it was asked for.
final class CountingPoolFactory: PoolFactory {
    let made = Mutex<[String]>([])
    func make(_ kind: PoolKind, size: Int, qos: QoSTier) -> any WorkerPool {
        made.withLock { $0.append("\(kind.rawValue)/\(size)") }
        return SystemPoolFactory().make(kind, size: size, qos: qos)
    }
}

/// Calls of a task closure, counted from any thread.
final class CallCounter: Sendable {
    private let value = Atomic<Int>(0)

    func add() { value.wrappingAdd(1, ordering: .relaxed) }

    var count: Int { value.load(ordering: .relaxed) }
}

@Suite(.serialized) struct SweepAPITests {
    /// A closure that only blocks (2 ms asleep): every task body ran on the pool, W dominates,
    /// and the results are those the CLI writes out.
    @Test func sweepsAClosure() throws {
        // Counted in an object the closure holds: a local Atomic captured by the escaping task
        // closure crashed the runner once (a bad pointer read in the result read after it).
        let calls = CallCounter()
        let result = try Sweep(
            .init(
                name: "sleeper", sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0,
                trialLength: .milliseconds(60), cores: 2)
        ) {
            calls.add()
            usleep(2_000)
        }.run()
        #expect(result.records.map(\.poolSize).sorted() == [1, 2])
        #expect(result.records.allSatisfy { $0.workload == "sleeper" && $0.pool == .queuePool })
        #expect(result.lowLoad.tasks >= 40)
        #expect(result.lowLoad.waitCPURatio > 1, "a sleeping task waits far longer than it computes")
        #expect(
            calls.count >= result.lowLoad.tasks + result.records.map { Int($0.tasks) }.reduce(0, +))
        let best = try result.best
        #expect(best == result.recommendation?.best)
        #expect(try result.queueCount == best.recommendedQueueCount)
        #expect([1, 2].contains(best.kneeQueueCount))
        #expect(!best.reason.contains("--"), "a Swift caller has no flags: \(best.reason)")
        #expect(best.specWaitCPURatio == nil, "a closure has no declared W/C")
        #expect(result.summaries.map(\.poolSize) == [1, 2])
    }

    /// Open loop from the library: a closure sleeping 2 ms, 100 arrivals/s evenly spaced, a
    /// 500 ms objective. Latency counts from each intended arrival, so no percentile can be
    /// under the 2 ms the task sleeps; the answer is sized on latency at that rate.
    @Test func sweepsAClosureAtAnArrivalRate() throws {
        let arrival = ArrivalPlan(rates: [100], process: .uniform, latencyObjective: .milliseconds(500))
        let result = try Sweep(
            .init(
                name: "sleeper", sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0,
                trialLength: .milliseconds(500), cores: 2, load: .open(arrival))
        ) {
            usleep(2_000)
        }.run()
        #expect(result.records.map(\.poolSize).sorted() == [1, 2])
        for record in result.records {
            let open = try #require(record.openLoop)
            #expect(open.arrivalRate == 100)
            // Arrivals every 10 ms counted in the window as it was measured: a whole number, the
            // window's length over 10 ms rounded one way or the other, however late the edges.
            let arrivals = open.offeredPerSecond * record.wallSeconds
            #expect(abs(arrivals - arrivals.rounded()) < 1e-6, "\(arrivals) arrivals")
            #expect(abs(arrivals - 100 * record.wallSeconds) < 1, "\(arrivals) arrivals in \(record.wallSeconds) s")
            #expect(record.latency.p50 >= 2_000, "p50 \(record.latency.p50) µs is under the task's own 2 ms sleep")
        }
        let best = try result.best
        #expect(best.basis == .latencySLO)
        #expect(best.latency?.arrivalRate == 100)
        #expect(best.latency?.latencySLOMicroseconds == 500_000)
        // A verdict for every size measured validly: the test process runs other suites at the
        // same time, and their CPU counts in a trial's utilization, which can void one trial.
        #expect(best.latency?.sizeVerdicts.map(\.poolSize) == result.records.valid.map(\.poolSize).sorted())
    }

    /// The pool factory is injected: every trial's pool comes from it.
    @Test func poolsComeFromTheInjectedFactory() throws {
        let factory = CountingPoolFactory()
        var sweep = Sweep(
            .init(
                name: "spin", sizes: .explicit([1, 3]), repetitions: 2, warmupTrials: 1, pool: .threadPool,
                trialLength: .milliseconds(40), cores: 2)
        ) {
            usleep(500)
        }
        sweep.pools = factory
        sweep.plan.busyRetries = 0  // a busy machine would run trials again, and ask for more pools
        let result = try sweep.run()
        let made = factory.made.withLock { $0 }
        // Low-load rounds on one queue, one warm-up at the largest size, then 2 × 2 trials.
        #expect(
            made.filter { $0 != "queue-pool/1" && $0 != "queue-pool/3" }.sorted() == [
                "thread-pool/1", "thread-pool/1", "thread-pool/3", "thread-pool/3",
            ])
        #expect(made.contains("queue-pool/3"))
        #expect(result.records.allSatisfy { $0.pool == .threadPool })
    }

    @Test func asyncRunGivesTheSameShapeOfResult() async throws {
        // 200 ms: enough tasks for a valid trial even when the machine is busy with other work.
        let result = try await Sweep(
            .init(
                name: "async", sizes: .explicit([1]), repetitions: 1, warmupTrials: 0,
                trialLength: .milliseconds(200), cores: 1)
        ) {
            usleep(1_000)
        }.run()
        #expect(result.records.count == 1)
        // Other suites run in this process at the same time, and the trial's process-wide CPU
        // can then exceed what one core allows: such a trial is marked invalid and gives no
        // recommendation. A valid one must give one.
        if result.records.first?.invalidReason == nil {
            #expect(try result.queueCount == 1)
        } else {
            #expect(result.recommendation == nil)
            #expect(throws: PoolSizeError.self) { try result.queueCount }
        }
    }

    /// The answer without a recommendation throws and says why, in a Swift caller's words.
    @Test func noRecommendationThrowsWithItsCause() throws {
        let configuration = Sweep.Configuration(name: "none", sizes: .explicit([1]))
        let result = SweepResult(
            plan: configuration.plan(description: "none"),
            lowLoad: LowLoadEstimate(waitMicroseconds: [], cpuMicroseconds: [], seconds: 0), records: [],
            recommendation: nil)
        #expect(throws: PoolSizeError.measurementFailed("no recommendation: no trials were measured")) {
            try result.queueCount
        }
        #expect(throws: PoolSizeError.measurementFailed("no recommendation: no trials were measured")) {
            try result.best
        }
    }

    /// Durations reach the plan in its units: the trial length to the nearest millisecond, the
    /// latency objective in microseconds, and back.
    @Test func durationsReachThePlan() {
        let plan = Sweep.Configuration(trialLength: .milliseconds(60)).plan(description: "d")
        #expect(plan.trialMilliseconds == 60 && plan.spec.trialMilliseconds == 60)
        #expect(Sweep.Configuration(trialLength: .microseconds(1_500)).plan(description: "d").trialMilliseconds == 2)
        #expect(Sweep.Configuration(trialLength: .seconds(2)).plan(description: "d").trialMilliseconds == 2_000)
        #expect(Sweep.Configuration().plan(description: "d").trialMilliseconds == nil)
        var arrival = ArrivalPlan(rates: [100], latencyObjective: .milliseconds(40))
        #expect(arrival.latencySLOMicroseconds == 40_000)
        #expect(arrival.latencyObjective == .milliseconds(40))
        arrival.latencyObjective = .microseconds(250)
        #expect(arrival.latencySLOMicroseconds == 250)
        #expect(ArrivalPlan(rates: [100], latencyObjective: nil).latencySLOMicroseconds == nil)
    }
}

@Suite struct QueuePoolSetFileTests {
    /// Measure → recommend → use: the count comes from a run directory's recommendation.json.
    @Test func countFromARunDirectory() throws {
        let run = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/run-io")
        let pools = try QueuePoolSet(recommendationAt: run, defaultCount: 3)
        #expect(pools.count(for: .default) == 24)
        #expect(pools.count(for: .utility) == 3)
        #expect(
            try QueuePoolSet(recommendationAt: run.appendingPathComponent("recommendation.json")).count(for: .default)
                == 24)
        #expect(
            throws: PoolSizeError.inputNotFound(
                path: "/nonexistent/recommendation.json",
                hint: "pass a run directory written by 'poolsize sweep', or its recommendation.json")
        ) {
            try QueuePoolSet(recommendationAt: URL(fileURLWithPath: "/nonexistent"))
        }
    }
}
