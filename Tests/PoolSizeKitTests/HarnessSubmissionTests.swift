import Dispatch
@testable import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// Which queue ran which task, for the harness's two submission disciplines
/// (docs/guide/harness-overhead.md): the trial and the pool reference take every task from the pool's round-robin,
/// the own-queue reference keeps each chain on the queue it started on.
@Suite struct HarnessSubmissionTests {
    /// Three queues tagged 0, 1, 2 with a specific key, for tasks to read their queue.
    static func taggedQueues(_ queues: [DispatchQueue], key: DispatchSpecificKey<Int>) {
        for (index, queue) in queues.enumerated() { queue.setSpecific(key: key, value: index) }
    }

    /// How many of the round-robin tickets 0..<tickets land on queue `queue` of `size`.
    static func ticketsOn(_ queue: Int, of size: Int, tickets: Int) -> Int {
        (0..<tickets).filter { $0 % size == queue }.count
    }

    @Test func ownQueueReferenceKeepsEachChainOnItsQueue() throws {
        let key = DispatchSpecificKey<Int>()
        let queues = (0..<3).map { DispatchQueue(label: "poolsize.test.own.\($0)") }
        Self.taggedQueues(queues, key: key)
        let workload = QueueRecordingWorkload(key: key)
        let settings = TrialSettings(durationNanoseconds: 60_000_000, warmupFraction: 0.2, depthPerSlot: 2)
        let result = try RawDispatchReference().run(queues: queues, workload: workload, settings: settings)
        let ran = workload.ran.withLock { $0 }
        #expect(result.tasksRun == ran.count)
        #expect(ran.count >= 6, "every chain ran its first task")
        // Chain c = layer × 3 + slot starts on queues[slot]; its tasks are c, c + 6, c + 12…
        for record in ran {
            #expect(record.queue == Int(record.task % 6) % 3, "task \(record.task) ran on queue \(record.queue)")
        }
        #expect(Set(ran.map(\.task)).count == ran.count)
    }

    @Test func poolReferenceTakesEveryTaskFromTheRoundRobin() throws {
        let key = DispatchSpecificKey<Int>()
        let pool = QueuePool(size: 3, label: "poolsize.test.rr")
        Self.taggedQueues(pool.queues, key: key)
        let workload = QueueRecordingWorkload(key: key)
        let settings = TrialSettings(durationNanoseconds: 60_000_000, warmupFraction: 0.2, depthPerSlot: 2)
        let result = try RawDispatchReference().run(pool: pool, workload: workload, settings: settings)
        pool.shutdown()
        let ran = workload.ran.withLock { $0 }
        #expect(result.size == 3)
        #expect(result.tasksRun == ran.count)
        #expect(result.completions <= ran.count)
        // Every task took one ticket: queue k ran exactly the tickets ≡ k (mod 3) of 0..<tasks,
        // and the next ticket is the one after the last task's.
        for queue in 0..<3 {
            #expect(ran.filter { $0.queue == queue }.count == Self.ticketsOn(queue, of: 3, tickets: ran.count))
        }
        #expect(pool.next().label == pool.queues[ran.count % 3].label)
        #expect(Set(ran.map(\.task)).count == ran.count)
    }

    @Test func trialTakesEveryTaskFromThePoolsRoundRobin() throws {
        let key = DispatchSpecificKey<Int>()
        let pool = QueuePool(size: 3, label: "poolsize.test.trial")
        Self.taggedQueues(pool.queues, key: key)
        let workload = QueueRecordingWorkload(key: key)
        let m = try TrialRunner().run(
            pool: pool, workload: workload, settings: TrialSettings(durationNanoseconds: 30_000_000_000, maxTasks: 40))
        pool.shutdown()
        let ran = workload.ran.withLock { $0 }
        #expect(m.samples.count == 40)
        #expect(ran.count == 40)
        // 40 tickets over 3 queues: 14, 13, 13; no ticket taken for the 41st, which is not started.
        #expect([0, 1, 2].map { queue in ran.filter { $0.queue == queue }.count } == [14, 13, 13])
        #expect(pool.next().label == pool.queues[1].label)
        #expect(Set(ran.map(\.task)) == Set(0..<40))
    }

    @Test func sidesRunInRotatingOrder() {
        let all = HarnessSide.allCases
        #expect(HarnessSide.order(of: all, repeat: 0) == [.reference, .harness, .ownQueue, .adaptive])
        #expect(HarnessSide.order(of: all, repeat: 1) == [.harness, .ownQueue, .adaptive, .reference])
        #expect(HarnessSide.order(of: all, repeat: 4) == [.reference, .harness, .ownQueue, .adaptive])
        let three: [HarnessSide] = [.reference, .harness, .ownQueue]
        #expect(HarnessSide.order(of: three, repeat: 2) == [.ownQueue, .reference, .harness])
        #expect(HarnessSide.order(of: three, repeat: 3) == [.reference, .harness, .ownQueue])
        // The order asked for does not matter, only which sides.
        #expect(HarnessSide.order(of: [.harness, .reference], repeat: 0) == [.reference, .harness])
        #expect(HarnessSide.order(of: [.harness, .reference], repeat: 1) == [.harness, .reference])
        #expect(HarnessSide.order(of: [.ownQueue], repeat: 5) == [.ownQueue])
        #expect(HarnessSide.order(of: [], repeat: 0) == [])
    }

    @Test func benchmarkRunsOnlyTheSidesAskedAndTalliesTheirTasks() throws {
        let benchmark = HarnessBenchmark(burner: CPUBurner(iterationsPerMicrosecond: 100), cores: 2)
        let point = try benchmark.measure(
            taskMicroseconds: 20, size: 2, trialNanoseconds: 50_000_000, repeats: 2, sides: [.ownQueue, .reference])
        #expect(point.harnessPerSecond.isEmpty)
        #expect(point.referencePerSecond.count == 2)
        #expect(point.ownQueuePerSecond.count == 2)
        #expect(Set(point.switches.keys) == [.reference, .ownQueue])
        #expect(point.switches[.reference].map { $0.tasks > 0 } == true)
        #expect(point.switches[.ownQueue].map { $0.tasks > 0 } == true)
        #expect(point.ratio == 0, "no harness runs, no ratio")
        #expect(point.poolSubmissionRatio > 0)
    }

    @Test func switchTallyPerTaskAndSum() {
        let tally = SwitchTally(tasks: 200, voluntary: 50, involuntary: 10)
        #expect(tally.voluntaryPerTask == 0.25)
        #expect(tally.involuntaryPerTask == 0.05)
        #expect(SwitchTally().voluntaryPerTask == nil)
        #expect(SwitchTally().involuntaryPerTask == nil)
        #expect(
            tally + SwitchTally(tasks: 100, voluntary: 1, involuntary: 2)
                == SwitchTally(tasks: 300, voluntary: 51, involuntary: 12))
    }

    @Test func poolSubmissionRatioIsReferenceOverOwnQueue() {
        let point = HarnessPoint(
            taskMicroseconds: 20, size: 4, harnessPerSecond: [66_000], referencePerSecond: [70_000, 72_000, 71_000],
            ownQueuePerSecond: [100_000])
        #expect(abs(point.poolSubmissionRatio - 0.71) < 1e-12)
        #expect(point.ownQueueMedian == 100_000)
        #expect(
            HarnessPoint(taskMicroseconds: 20, size: 4, harnessPerSecond: [1], referencePerSecond: [1])
                .poolSubmissionRatio == 0)
    }
}

/// Records which tagged queue ran each task, then sleeps 200 µs.
final class QueueRecordingWorkload: Workload, @unchecked Sendable {
    // @unchecked: `key` is only read (DispatchSpecificKey is a plain class); `ran` is a Mutex.
    let key: DispatchSpecificKey<Int>
    let ran = Mutex<[(task: UInt64, queue: Int)]>([])

    init(key: DispatchSpecificKey<Int>) {
        self.key = key
    }

    func run(task index: UInt64) {
        let queue = DispatchQueue.getSpecific(key: key) ?? -1
        ran.withLock { $0.append((index, queue)) }
        SleepWaiter().wait(microseconds: 200)
    }
}
