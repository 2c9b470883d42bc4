import Dispatch
@testable import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

@Suite struct HarnessReferenceTests {
    @Test func referenceCountsOnlyWindowCompletionsAndDrains() throws {
        let workload = CountingWorkload()
        let settings = TrialSettings(durationNanoseconds: 100_000_000, warmupFraction: 0.2, depthPerSlot: 2)
        let result = try RawDispatchReference().run(size: 2, workload: workload, settings: settings)
        let ran = workload.runs.load(ordering: .relaxed)
        #expect(result.size == 2)
        #expect(result.completions > 0)
        #expect(result.completions <= ran, "the window counts a subset of the tasks that ran")
        #expect(result.windowNanoseconds >= 80_000_000)
        // Chains c, c + 4, c + 8…: every index is distinct, so the count of distinct indices is the count of runs.
        #expect(workload.seen.withLock { $0.count } == ran)
    }

    @Test func referenceRefusesZeroQueues() {
        #expect(
            throws: PoolSizeError.invalidParameter(.sizes, message: "the reference needs at least one queue, got 0")
        ) {
            try RawDispatchReference().run(
                size: 0, workload: CountingWorkload(), settings: TrialSettings(durationNanoseconds: 1_000_000))
        }
    }

    @Test func cachedThreadFactsMatchTheSyscalls() {
        let generation = WorkerThread.nextGeneration()
        // Copied out: the thread's facts are one object, updated by the next generation's call.
        let cached = WorkerThread.facts(generation: generation)
        let facts = (id: cached.id, nice: cached.nice)
        #expect(facts.id == WorkerThread.id())
        #expect(facts.nice == WorkerThread.nice())
        // Another trial re-reads nice; the id stays.
        let next = WorkerThread.facts(generation: WorkerThread.nextGeneration())
        #expect(next.id == facts.id)
        #expect(next.nice == WorkerThread.nice())
        #expect(WorkerThread.nextGeneration() != generation)
    }

    @Test func cachedFactsOnAWorkerAreThatWorkersOwn() {
        let queue = DispatchQueue(label: "poolsize.test.facts", qos: .utility)
        let generation = WorkerThread.nextGeneration()
        let pair = queue.sync { (WorkerThread.facts(generation: generation), WorkerThread.id(), WorkerThread.nice()) }
        #expect(pair.0.id == pair.1)
        #expect(pair.0.nice == pair.2)
    }

    @Test func trialSamplesKeepTheirThreadIdsAndLastEnd() throws {
        let workload = CountingWorkload()
        let pool = QueuePool(size: 2)
        let m = try TrialRunner().run(
            pool: pool, workload: workload, settings: TrialSettings(durationNanoseconds: 30_000_000_000, maxTasks: 20))
        pool.shutdown()
        #expect(m.samples.count == 20)
        #expect(m.samples.allSatisfy { $0.thread > 0 })
        #expect(
            m.windowEnd == m.samples.map(\.ended).max(),
            "with every task done in warm-up the window ends at the last task's end")
    }

    @Test func harnessPointFiguresAreHandComputed() {
        let point = HarnessPoint(
            taskMicroseconds: 20, size: 4, harnessPerSecond: [90_000, 80_000, 100_000],
            referencePerSecond: [100_000, 95_000, 105_000, 200_000])
        #expect(point.harnessMedian == 90_000)
        #expect(point.referenceMedian == 102_500)
        #expect(abs(point.ratio - 90_000.0 / 102_500) < 1e-12)
        // 1/90000 − 1/102500 s = 11111.1 − 9756.1 ns = 1355.0 ns
        #expect(abs(point.costPerTaskNanoseconds - 1_355.0135) < 0.01)
    }

    @Test func syntheticTaskReportsItsOwnCPUOnlyWithoutACriticalSectionOnRealClocks() throws {
        let burner = CPUBurner(iterationsPerMicrosecond: 100)
        let spec = WorkloadSpec(name: "c200", cpuMicroseconds: 200, waitMicroseconds: 0)
        let workload = SyntheticWorkload(times: TaskTimes(spec: spec, seed: 1), burner: burner, waiter: NoWait())
        #expect(workload.measuresOwnCPU)
        let before = SystemClocks().threadCPUNanoseconds()
        let outcome = workload.execute(task: 0)
        let after = SystemClocks().threadCPUNanoseconds()
        let cpu = try #require(outcome.cpuNanoseconds)
        // The burner stops within 1 µs of the target, whatever the machine's speed.
        #expect(cpu >= 199_000)
        #expect(cpu <= after - before)
        #expect(TaskOutcome().cpuNanoseconds == nil)
        #expect(!CountingWorkload().measuresOwnCPU)
    }
}

private struct NoWait: Waiter {
    func wait(microseconds: Double) {}
}
