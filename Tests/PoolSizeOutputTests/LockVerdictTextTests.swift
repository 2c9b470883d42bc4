import Foundation
import PoolSizeModel
import PoolSizeObserve
import Testing
@testable import PoolSizeOutput

/// Issue 33, finding 2: what the verdict says of a runtime with an interpreter lock. Its evidence
/// is the lock's use (the threads' CPU per process, of the 1 core it allows), never the share of
/// futex among the blocked samples: Ruby's `sleep` and a Python thread's `join()` park in futex
/// as the lock's waiters do.
struct LockVerdictTextTests {
    static let cores = CoreCount(online: 2, affinity: 2, cgroupQuota: nil)

    /// A Ruby pool of `threads` threads using `cpuCores` with Q/C 0.05, every blocked sample in
    /// futex, W/C 0–3.8 (N 0.8–4.8 with Ruby's lock), its verdict decided.
    static func ruby(cpuCores: Double, threads: Int) throws -> PoolEstimate {
        var pool = try #require(try ObservationOutputTests.observation().pools.first { $0.name == "worker" })
        pool.name = "puma"
        pool.threads = threads
        pool.meanThreads = Double(threads)
        pool.cpuCores = cpuCores
        pool.queueToCPU = 0.05
        pool.waitToCPU = ValueRange(low: 0, high: 3.8)
        pool.size = ValueRange(low: 0.8, high: 4.8)
        pool.perTask = nil
        pool.topCalls = [LabelShare(label: "futex", samples: 900, fraction: 1)]
        pool.program = KnownProgram(kind: .ruby, version: "3.1", evidence: "libruby.so.3.1")
        pool.parallelism = 1
        pool.processes = 1
        pool.verdict = PoolVerdict.decide(pool)
        return pool
    }

    /// Puma's 4 threads, each 1 ms of Ruby then `sleep 0.004`: the lock is free a fifth of the time,
    /// so its futex waits may be sleeps; the sentence says so instead of "interpreter-lock
    /// contention … 100% of blocked samples in futex; do not grow".
    @Test func futexWaitsWithTheLockOftenFreeAreLeftAmbiguous() throws {
        let pool = try Self.ruby(cpuCores: 0.8, threads: 4)
        #expect(pool.verdict == PoolVerdict(kind: .undetermined, reason: .ambiguousWait))
        let sentence = ObservationVerdictText.sentence(pool, cores: Self.cores)
        #expect(!sentence.contains("contention") && !sentence.contains("do not grow"), "\(sentence)")
        #expect(
            sentence.contains(
                "; the interpreter lock is not shown to be the limit: the threads ran 0.800 cores per process, short "
                    + "of the 1 it allows, so futex waits may be sleeps, joins or idle threads as much as waits for the "
                    + "lock; --latency D with --throughput R/s or --counter CMD would resolve them"), "\(sentence)")
    }

    /// Five threads keep the lock in use all the time: contention, said from the lock's use.
    @Test func aLockInUseNearlyAlwaysIsContentionByItsUse() throws {
        let pool = try Self.ruby(cpuCores: 0.96, threads: 5)
        #expect(pool.verdict.kind == .lockContended)
        #expect(
            ObservationVerdictText.sentence(pool, cores: Self.cores)
                == "interpreter-lock contention: Ruby 3.1 runs one thread of Ruby at a time per process, and the pool's "
                + "threads ran 0.960 cores per process of the 1 the lock allows, so it was nearly never free; do not "
                + "grow the pool: more threads would only wait for the lock (N = 1 (Ruby's lock) × (1 + W/C) = "
                + "0.8–4.8); to use more cores, run more processes")
    }
}
