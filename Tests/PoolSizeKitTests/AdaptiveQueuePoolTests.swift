import CPoolSizeSys
import Dispatch
import Foundation
import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// The adaptive pool on real queues and threads, its windows ended by hand (`tick`) on clocks
/// that step 100 ms a window and see no process CPU, so nothing depends on how fast or how busy
/// the machine is.
@Suite struct AdaptiveQueuePoolTests {
    final class SteppingClocks: ScriptedClocks, Sendable {
        let now = Atomic<UInt64>(1_000_000_000)
        func wallNanoseconds() -> UInt64 { now.wrappingAdd(100_000_000, ordering: .relaxed).newValue }
        func threadCPUNanoseconds() -> UInt64 { 0 }
        func processUsage() -> ProcessUsage {
            ProcessUsage(
                cpuNanoseconds: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0, maxRSSKilobytes: 0)
        }
        func machineBusyNanoseconds() -> UInt64? { nil }
    }

    static func pool(minimum: Int = 1, maximum: Int = 16, cores: Int = 2) -> AdaptiveQueuePool {
        AdaptiveQueuePool(
            settings: AdaptiveSettings(minimum: minimum, maximum: maximum, cores: cores), seed: 1,
            clocks: SteppingClocks(), runsTimer: false)
    }

    /// Waits (up to 10 s) until `condition` holds.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    /// It starts at the cores, runs everything submitted, never more than its size at once.
    @Test func startsAtTheCoresAndRunsAtMostItsSizeAtOnce() {
        let pool = Self.pool(cores: 3)
        #expect(pool.size == 3)
        let gauge = ConcurrencyGauge()
        let rendezvous = Rendezvous(count: 3)
        for _ in 0..<36 {
            pool.submit {
                gauge.enter()
                rendezvous.arrive()
                SleepWaiter().wait(microseconds: 1_000)
                gauge.leave()
            }
        }
        pool.shutdown()
        #expect(gauge.peak.load(ordering: .relaxed) == 3)
        #expect(gauge.total.load(ordering: .relaxed) == 36)
    }

    /// Ten tasks that block until released, on 2 queues: each window finishes nothing while work
    /// waits, so the queues double (2 → 4 → 8), then reach the 10 tasks there are; each added
    /// queue starts at once on the work already waiting.
    @Test func starvedQueuesGrowAtOnceAndTakeTheWaitingWork() {
        let pool = Self.pool()
        let gauge = ConcurrencyGauge()
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<10 {
            pool.submit {
                gauge.enter()
                release.wait()
                gauge.leave()
            }
        }
        var sizes: [Int] = []
        var reasons: [AdaptiveDecision.Reason] = []
        for _ in 0..<3 {
            let running = pool.size
            #expect(Self.eventually { gauge.current.load(ordering: .relaxed) == running })
            let decision = pool.tick()
            sizes.append(decision.size)
            reasons.append(decision.reason)
        }
        #expect(Self.eventually { gauge.current.load(ordering: .relaxed) == 10 })
        for _ in 0..<10 { release.signal() }
        pool.shutdown()
        #expect(sizes == [4, 8, 10])
        #expect(reasons == [.starvation, .starvation, .starvation])
        #expect(gauge.total.load(ordering: .relaxed) == 10)
        #expect(pool.steps.map(\.size) == [4, 8, 10])
        let status = pool.status
        #expect(status.changes.map(\.reason) == ["starvation", "starvation", "starvation"])
        #expect(status.changes.map(\.size) == [4, 8, 10])
        #expect(status.size == 10 && status.tasksFinished == 10 && status.tasksWaiting == 0 && status.windows == 3)
        #expect(status.description.hasPrefix("10 queues (1…16) after `starvation` at "))
    }

    /// The README's batch: everything submitted at once, then `shutdown()`. The controller goes on
    /// deciding while the batch drains, so the pool grows from its start at the cores toward
    /// cores × (1 + W/C) on work that sleeps 10 ms (W/C in the hundreds: the formula says the
    /// maximum). Before, `shutdown()` stopped the controller first and the whole batch ran at 2.
    /// At 2 queues the batch lasts 2 s, twenty windows; nothing here depends on how fast they pass.
    /// How far it grows and the W/C it measured are accuracy figures: scripts/benchmark-adaptive-batch.sh
    /// checks them on the README's batch.
    @Test func theBatchPatternGrowsWhileShutdownDrains() throws {
        let pool = AdaptiveQueuePool(minimum: 2, maximum: 32, qos: .utility, cores: 2, seed: 7)
        #expect(pool.size == 2)
        let done = Atomic<Int>(0)
        for _ in 0..<400 {
            pool.submit {
                SleepWaiter().wait(microseconds: 10_000)
                done.wrappingAdd(1, ordering: .relaxed)
            }
        }
        pool.shutdown()
        #expect(done.load(ordering: .relaxed) == 400)
        let status = pool.status
        #expect(status.tasksFinished == 400 && status.tasksWaiting == 0)
        let largest = try #require(status.changes.map(\.size).max())
        #expect(largest > 2, "grew past its start while the batch drained")
        #expect(status.changes.contains { $0.reason == "formula" || $0.reason == "starvation" })
        let ratio = try #require(status.waitCPURatio)
        #expect(ratio.isFinite && ratio > 0)
        // Stopped: the size no longer moves.
        let settled = pool.size
        #expect(pool.tick().reason == .hold && pool.size == settled)
    }

    /// `waitUntilIdle()` waits for work submitted before and during the wait (a task that
    /// submits another) and leaves the pool running: more work can follow.
    @Test func waitUntilIdleWaitsForChildrenAndKeepsThePool() {
        let pool = Self.pool(maximum: 4)
        let done = Atomic<Int>(0)
        for _ in 0..<20 {
            pool.submit {
                SleepWaiter().wait(microseconds: 500)
                pool.submit { done.wrappingAdd(1, ordering: .relaxed) }
                done.wrappingAdd(1, ordering: .relaxed)
            }
        }
        pool.waitUntilIdle()
        #expect(done.load(ordering: .relaxed) == 40)
        pool.submit { done.wrappingAdd(1, ordering: .relaxed) }
        pool.shutdown()
        #expect(done.load(ordering: .relaxed) == 41)
        #expect(pool.status.tasksFinished == 41)
    }

    /// The status says what held the pool back: tasks of 2 ms CPU and 6 ms sleep give a formula
    /// of about 2 × (1 + 3) = 8 queues, but once they are done no work waits, so it stays at 2.
    /// How near the formula comes to 8 is an accuracy figure (scripts/benchmark-adaptive-batch.sh).
    @Test func statusSaysWhyThePoolDidNotGrow() throws {
        let pool = Self.pool(maximum: 16)
        let burner = CPUBurner()
        for _ in 0..<20 {
            pool.submit {
                _ = burner.burn(microseconds: 2_000)
                SleepWaiter().wait(microseconds: 6_000)
            }
        }
        pool.waitUntilIdle()
        #expect(pool.tick().size == 2)
        let status = pool.status
        pool.shutdown()
        #expect(status.size == 2 && status.changes.isEmpty && status.windows == 1 && status.sampledTasks == 20)
        let formula = try #require(status.formulaSize)
        #expect(formula > 2, "the formula asks for more than the pool has: \(formula)")
        #expect(
            status.description.hasPrefix("2 queues (1…16), unchanged since the start; 20 tasks finished, 0 waiting; C ")
        )
        #expect(
            status.description.hasSuffix(
                "formula 2 × (1 + W/C) → \(formula); not grown: no work waits; 1 window decided"))
    }

    /// Tasks of 2 ms thread CPU and a 6 ms sleep: every task is sampled and gives a C and a W/C.
    /// How near they come to 2 ms and 3 is an accuracy figure: scripts/benchmark-adaptive-batch.sh
    /// checks the estimate on the README's batch (C within 0.95–1.25× and W/C within 0.77–1.2× of
    /// the task's).
    @Test func measuresEachTasksCPUAndWait() throws {
        let pool = Self.pool(maximum: 2)
        let burner = CPUBurner()
        for _ in 0..<20 {
            pool.submit {
                _ = burner.burn(microseconds: 2_000)
                SleepWaiter().wait(microseconds: 6_000)
            }
        }
        pool.drain()
        pool.tick()
        pool.shutdown()
        let estimate = pool.core.control.withLock { $0.controller.estimate }
        #expect(estimate.tasks == 20)
        let cpu = try #require(estimate.cpuSecondsPerTask)
        let ratio = try #require(estimate.waitCPURatio)
        #expect(cpu.isFinite && cpu > 0)
        #expect(ratio.isFinite && ratio > 0)
    }

    /// After a window of 320 finished tasks, one task in ten is timed (about 32 a window).
    @Test func timesAboutThirtyTwoTasksAWindow() {
        let pool = Self.pool(maximum: 2)
        for _ in 0..<320 { pool.submit {} }
        pool.drain()
        #expect(pool.sampleEvery == 1)
        pool.tick()
        #expect(pool.sampleEvery == 10)
        pool.shutdown()
        // After shutdown nothing decides any more.
        #expect(pool.tick().reason == .hold && pool.steps.count == 1)
    }

    /// Shrinking from 8 queues to 2 in mid-run leaves nothing behind; no work waits once done.
    @Test func shrinkingLosesNoWork() {
        let pool = Self.pool(maximum: 8, cores: 8)
        let done = Atomic<Int>(0)
        for index in 0..<200 {
            if index == 100 { pool.resize(to: 2) }
            pool.submit {
                SleepWaiter().wait(microseconds: 200)
                done.wrappingAdd(1, ordering: .relaxed)
            }
        }
        pool.shutdown()
        #expect(pool.size == 2)
        #expect(done.load(ordering: .relaxed) == 200)
        #expect(pool.waiting == 0)
    }

    /// A sweep's trial of `--pool adaptive` plans its load for the maximum (`plannedSize`: two
    /// tasks per queue, as for a fixed pool of that size), records the sizes the pool chose, and never runs more
    /// than the maximum at once.
    @Test func aTrialPlansForTheMaximumAndRecordsTheSizes() throws {
        let pool = SystemPoolFactory(cores: 2).make(.adaptive, size: 8, qos: .default)
        #expect(pool.kind == .adaptive && pool.size == 2 && pool.plannedSize == 8)
        let workload = SleepingWorkload(microseconds: 2_000)
        let measurement = try TrialRunner().run(
            pool: pool, workload: workload, settings: TrialSettings(durationNanoseconds: 1_000_000_000))
        pool.shutdown()
        #expect(measurement.poolSize == 8)
        #expect(measurement.peakConcurrency <= 8)
        #expect(!measurement.sizeSteps.isEmpty)
        #expect(measurement.sizeSteps.allSatisfy { (1...8).contains($0.size) })
    }

    /// The run-queue reading behind R: readable, and it never goes back.
    @Test func runQueueTimeIsReadableAndMonotonic() {
        var first: UInt64 = 0
        var second: UInt64 = 0
        #expect(poolsize_thread_run_delay_ns(&first) == 0)
        for _ in 0..<1_000 { sched_yield() }
        #expect(poolsize_thread_run_delay_ns(&second) == 0)
        #expect(second >= first)
    }
}
