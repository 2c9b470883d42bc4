import PoolSizeModel
import PoolSizeStats
import Testing
@testable import PoolSizeObserve

/// `PoolVerdict.decide` on pools whose figures are set by hand, one rule per test.
struct VerdictTests {
    static func pool(
        threads: Int, busy: ValueRange = ValueRange(low: 0.5, high: 0.5),
        size: ValueRange? = ValueRange(low: 8, high: 8.5),
        queueToCPU: Double = 0.1, cpuCores: Double = 0.5, samples: Int = 1000, runnable: Double = 0.2
    ) -> PoolEstimate {
        PoolEstimate(
            name: "pool", threadNames: ["pool-1"], threads: threads, meanThreads: Double(threads), threadsSeen: threads,
            threadsStarted: 0, threadsExited: 0,
            samples: samples, shares: [ShareEstimate(kind: .runnable, fraction: runnable, interval95: nil)], busy: busy,
            cpuCores: cpuCores, queueToCPU: queueToCPU,
            waitToCPU: size.map { ValueRange(low: $0.low / 2 - 1, high: $0.high / 2 - 1) }, size: size,
            verdict: PoolVerdict(kind: .undetermined, reason: .noWork), topCalls: [], topPeers: [],
            switchesPerThreadSecond: nil, perTask: nil)
    }

    @Test func moreThreadsThanTheRangesTopIsOversized() {
        #expect(PoolVerdict.decide(Self.pool(threads: 10)).kind == .oversized)
        #expect(PoolVerdict.decide(Self.pool(threads: 9)).kind == .aboutRight, "8–8.5 rounds out to 8–9")
    }

    @Test func fewerThreadsOnlyMatterWhenAllAreBusy() {
        #expect(PoolVerdict.decide(Self.pool(threads: 4, busy: ValueRange(low: 0.95, high: 1))).kind == .undersized)
        #expect(
            PoolVerdict.decide(Self.pool(threads: 4, busy: ValueRange(low: 0.5, high: 1))).kind == .aboutRight,
            "not every thread is busy: the pool is not the limit at this load")
    }

    @Test func runQueueTimeMeansDoNotGrow() {
        let saturated = Self.pool(
            threads: 4, busy: ValueRange(low: 1, high: 1), queueToCPU: PoolVerdict.saturatedQueueToCPU)
        #expect(PoolVerdict.decide(saturated).kind == .cpuSaturated, "undersized by W/C, but Q is not W")
        // 4 threads runnable 2% of the time: 0.08 threads wait for a CPU on average, wake-up latency.
        let latency = Self.pool(threads: 4, busy: ValueRange(low: 1, high: 1), queueToCPU: 2, runnable: 0.02)
        #expect(PoolVerdict.decide(latency).kind == .undersized)
    }

    @Test func aWideRangeAroundTheThreadCountIsUndetermined() {
        let wide = Self.pool(threads: 20, size: ValueRange(low: 6, high: 60))
        #expect(PoolVerdict.decide(wide) == PoolVerdict(kind: .undetermined, reason: .ambiguousWait))
        #expect(
            PoolVerdict.decide(Self.pool(threads: 20, size: ValueRange(low: 18, high: 22))).kind == .aboutRight,
            "a range of 4 around 20 is narrow enough")
    }

    @Test func noWorkAndFewSamplesAreUndetermined() {
        #expect(
            PoolVerdict.decide(Self.pool(threads: 4, cpuCores: 0)) == PoolVerdict(kind: .undetermined, reason: .noWork))
        #expect(
            PoolVerdict.decide(Self.pool(threads: 4, size: nil)) == PoolVerdict(kind: .undetermined, reason: .noWork))
        #expect(
            PoolVerdict.decide(Self.pool(threads: 4, samples: 49))
                == PoolVerdict(kind: .undetermined, reason: .tooFewSamples))
        #expect(
            PoolVerdict.decide(Self.pool(threads: 1, busy: ValueRange(low: 1, high: 1)))
                == PoolVerdict(kind: .undetermined, reason: .singleThread),
            "an event loop blocked in poll is not an undersized pool")
    }

    @Test func aResolvedWaitPicksOnePointOfTheRange() {
        // W/C 3–29 (size 8–60 at 2 cores); a resolved W/C of 4 gives N = 2 × 5 = 10: 20 threads are too many.
        var pool = Self.pool(threads: 20, size: ValueRange(low: 8, high: 60))
        pool.perTask = TaskEstimate(
            throughputPerSecond: 10, cpuSeconds: 0.01, runQueueSeconds: 0,
            waitSeconds: ValueRange(low: 0.03, high: 0.29),
            threadsNeeded: ValueRange(low: 0.4, high: 3), waitProbability: ValueRange(low: 0, high: 0),
            resolvedWaitSeconds: 0.04, tasksInFlight: 1, resolvedWaitToCPU: 4, resolvedSize: 10)
        #expect(PoolVerdict.decide(pool).kind == .oversized)
    }
}

/// Issue 31: the verdicts a wide range, a task latency and an interpreter lock call for.
struct VerdictOrderTests {
    static func task(inFlight: Double, resolvedSize: Double) -> TaskEstimate {
        TaskEstimate(
            throughputPerSecond: 1000, cpuSeconds: 0.001, runQueueSeconds: 0,
            waitSeconds: ValueRange(low: 0, high: 0.05),
            threadsNeeded: ValueRange(low: 1, high: 50), waitProbability: ValueRange(low: 0, high: 1),
            resolvedWaitSeconds: 0.01, tasksInFlight: inFlight, resolvedWaitToCPU: 10, resolvedSize: resolvedSize)
    }

    /// 16 backends whose waits are ambiguous (N 2–80) with Q/C 0.6 and a third of a thread
    /// runnable: the waits may be tasks', so the run-queue time is no reason not to grow
    /// (pgbench at 64 connections served 3.6 times what 16 did).
    @Test func aWideRangeGetsNoDoNotGrowFromRunQueueTime() {
        let pool = VerdictTests.pool(
            threads: 16, busy: ValueRange(low: 0.04, high: 1), size: ValueRange(low: 2, high: 80), queueToCPU: 0.6,
            runnable: 0.02)
        #expect(PoolVerdict.cpuShort(pool), "by Q/C alone the CPUs look short")
        #expect(PoolVerdict.decide(pool) == PoolVerdict(kind: .undetermined, reason: .ambiguousWait))
        let narrow = VerdictTests.pool(
            threads: 3, busy: ValueRange(low: 0.5, high: 0.52), size: ValueRange(low: 2, high: 2.1), queueToCPU: 0.7,
            runnable: 0.2)
        #expect(PoolVerdict.decide(narrow).kind == .cpuSaturated, "nginx: W/C 0–0.05, the CPUs are the limit")
    }

    /// 64 tasks in flight in a pool of 9 threads: they queue before it.
    @Test func latencyFarAboveTheThreadsIsQueueing() {
        var pool = VerdictTests.pool(threads: 9, size: ValueRange(low: 4, high: 60))
        pool.perTask = Self.task(inFlight: 64, resolvedSize: 9)
        #expect(PoolVerdict.decide(pool).kind == .queueing, "not 'about right' because 9 lies near N")
        pool.perTask = Self.task(inFlight: 10, resolvedSize: 9)
        #expect(PoolVerdict.decide(pool).kind == .aboutRight, "λ·D a little over the threads is noise in λ and D")
    }

    /// The resolved N is what the verdict judges, and λ·D how busy the threads are.
    @Test func aResolvedLatencyJudgesOneFigure() {
        var pool = VerdictTests.pool(
            threads: 8, busy: ValueRange(low: 0.3, high: 1), size: ValueRange(low: 2, high: 60))
        pool.perTask = Self.task(inFlight: 7.8, resolvedSize: 20)
        #expect(PoolVerdict.decide(pool).kind == .undersized, "7.8 of 8 threads in tasks, N 20")
        pool.perTask = Self.task(inFlight: 2, resolvedSize: 20)
        #expect(PoolVerdict.decide(pool).kind == .aboutRight, "a quarter busy: not the limit at this load")
        pool.perTask = Self.task(inFlight: 2, resolvedSize: 5)
        #expect(PoolVerdict.decide(pool).kind == .oversized)
    }

    static func locked(cpuCores: Double, processes: Int = 1, queueToCPU: Double = 0.1) -> PoolEstimate {
        var pool = VerdictTests.pool(
            threads: 32, busy: ValueRange(low: 0.05, high: 1), size: ValueRange(low: 1, high: 40),
            queueToCPU: queueToCPU, cpuCores: cpuCores, runnable: 0.03)
        pool.program = KnownProgram(kind: .cpython, version: "3.11", evidence: "python3.11")
        pool.parallelism = 1
        pool.processes = processes
        return pool
    }

    /// 32 CPython threads holding one core between them: the lock, not the CPUs.
    @Test func anInterpreterLockHeldNearlyAlwaysIsLockContention() {
        #expect(PoolVerdict.decide(Self.locked(cpuCores: 0.95, queueToCPU: 0.6)).kind == .lockContended)
        #expect(
            PoolVerdict.decide(Self.locked(cpuCores: 0.95, processes: 2)).kind == .undetermined,
            "two processes at half a core each: each lock is free half the time")
        #expect(PoolVerdict.decide(Self.locked(cpuCores: 0.3)).kind == .undetermined)
        var unlocked = Self.locked(cpuCores: 0.95, queueToCPU: 0.6)
        unlocked.parallelism = nil
        #expect(!unlocked.lockLimited)
        #expect(PoolVerdict.decide(unlocked).kind != .lockContended)
    }

    /// A 4-thread Puma whose threads each run 1 ms of Ruby and then `sleep 0.004`, the pool the
    /// limit: 0.8 cores of Ruby, Q/C 0.05. Its futex waits are sleeps (Ruby's sleep parks in
    /// futex as the lock's waiters do), and the lock is held 0.8 of the time, free the rest: a
    /// fifth thread would add work. Not contention (it was: 0.8 cores per process sufficed);
    /// the waits stay ambiguous.
    static func puma(cpuCores: Double = 0.8, queueToCPU: Double = 0.05, threads: Int = 4) -> PoolEstimate {
        var pool = VerdictTests.pool(
            threads: threads, busy: ValueRange(low: 0.2, high: 1), size: ValueRange(low: 0.8, high: 4.8),
            queueToCPU: queueToCPU, cpuCores: cpuCores, runnable: 0.01)
        pool.program = KnownProgram(kind: .ruby, version: "3.1", evidence: "libruby.so.3.1")
        pool.parallelism = 1
        pool.processes = 1
        pool.topCalls = [LabelShare(label: "futex", samples: 800, fraction: 1)]
        return pool
    }

    @Test func futexWaitsWithTheLockOftenFreeAreNotContention() throws {
        let puma = Self.puma()
        #expect(PoolVerdict.lockCores(puma) == 0.8)
        #expect(!PoolVerdict.lockBound(puma))
        #expect(PoolVerdict.decide(puma) == PoolVerdict(kind: .undetermined, reason: .ambiguousWait))
        // Run-queue time is no lock time: a thread woken from its sleep waits for a CPU before it
        // asks for the lock (0.7 cores with Q/C 0.4, measured so on a busy machine).
        #expect(PoolVerdict.decide(Self.puma(cpuCores: 0.7, queueToCPU: 0.4)).kind == .undetermined)
        // Five threads hold the lock 0.96 of the time: then it is the limit.
        #expect(PoolVerdict.decide(Self.puma(cpuCores: 0.96, threads: 5)).kind == .lockContended)
        // The lock's use is the evidence, however few samples blocked in futex.
        var quiet = Self.puma(cpuCores: 0.95)
        quiet.topCalls = []
        #expect(PoolVerdict.decide(quiet).kind == .lockContended)
    }

    /// A CPython process whose main thread waits in `join()` (futex) while its workers run
    /// 0.5 cores with Q/C 0.6 on a busy machine: the lock is free half the time, so the CPUs,
    /// not the lock, are short (it said lock-bound: Q/C alone made it so).
    @Test func runQueueTimeWithTheLockOftenFreeIsTheCPUs() {
        var pool = VerdictTests.pool(
            threads: 3, busy: ValueRange(low: 0.5, high: 0.52), size: ValueRange(low: 2, high: 2.1), queueToCPU: 0.6,
            cpuCores: 0.5, runnable: 0.2)
        pool.program = KnownProgram(kind: .cpython, version: "3.11", evidence: "python3.11")
        pool.parallelism = 1
        pool.processes = 1
        #expect(PoolVerdict.decide(pool).kind == .cpuSaturated)
    }

    /// 1.6 cores in one CPython process: its threads ran in parallel outside the lock (a C
    /// extension releases it), so the lock is not what holds it to a core.
    @Test func moreThanACorePerProcessIsNotTheLock() {
        let parallel = Self.locked(cpuCores: 1.6)
        #expect(PoolVerdict.lockCores(parallel) ?? 0 > PoolVerdict.lockParallelCores)
        #expect(!PoolVerdict.lockBound(parallel))
        #expect(PoolVerdict.decide(parallel) == PoolVerdict(kind: .undetermined, reason: .ambiguousWait))
    }
}

/// Batch means: the observation cut into equal sub-intervals, one estimate each.
struct BatchMeansTests {
    /// 21 sweeps one second apart, one thread: 20 intervals in 4 batches (intervals ending at
    /// 1–4 s, 5–9, 10–14, 15–20) whose CPU per second is 0.1, 0.2, 0.3 and 0.4. The running share
    /// is 5.3 / 20 = 0.265 overall; the batch shares 0.1–0.4 have SD √(0.05/3), so the 95%
    /// half-width is t(0.975, 3) × SD / √4.
    @Test func intervalsComeFromTheBatchSpread() throws {
        var cpu: UInt64 = 0
        var sweeps: [RawSweep] = []
        for second in 0...20 {
            if second > 0 { cpu += [100_000_000, 200_000_000, 300_000_000, 400_000_000][min(3, second / 5)] }
            sweeps.append(
                RawSweep(
                    timeSeconds: Double(second),
                    threads: [
                        EstimatorFixtures.thread(
                            11, "w", "S", cpu: cpu, queue: 0, syscall: EstimatorFixtures.call(0), link: "pipe:[1]",
                            startTicks: 0)
                    ]))
        }
        var recording = EstimatorFixtures.recording
        recording.sweeps = sweeps
        let pool = try #require(
            ObservationEstimator.estimate(recording.record, settings: EstimatorSettings()).pools.first)
        let running = try #require(pool.share(.running))
        #expect(abs(running.fraction - 0.265) < 1e-9)
        let half = StudentT.criticalValue(confidence: 0.95, degreesOfFreedom: 3) * (0.05 / 3).squareRoot() / 2
        let interval = try #require(running.interval95)
        #expect(abs(interval.lower - (0.265 - half)) < 1e-9)
        #expect(abs(interval.upper - (0.265 + half)) < 1e-9)
    }

    /// A supervisor that wakes once a second and spends 3 ms each time passes the idle floor
    /// (1 ms per second) but is no worker beside one that spent 0.7 s of a 0.8 s window.
    @Test func aSupervisorBesideItsWorkersIsNotAWorkingProcess() {
        #expect(PoolVerdict.workingProcesses(cpuSeconds: [10: 0.003, 11: 0.7], over: 0.8) == [11])
        // Two workers sharing the load unevenly (1 to 10) are both counted; an idle one is not.
        #expect(PoolVerdict.workingProcesses(cpuSeconds: [12: 0.04, 11: 0.4, 13: 0.0005], over: 1) == [11, 12])
        // Below the floor nothing worked, however the CPU is shared.
        #expect(PoolVerdict.workingProcesses(cpuSeconds: [11: 0.0009], over: 1).isEmpty)
        #expect(PoolVerdict.workingProcesses(cpuSeconds: [11: 0.5], over: 0).isEmpty)
    }
}
