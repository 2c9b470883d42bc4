import Dispatch
import Foundation
import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// Every pool kind honours its N: it never runs more than N tasks at once. Kinds that own their
/// threads (queue pool, thread pool, operation queue) also reach N when N tasks block together.
@Suite struct PoolKindTests {
    /// Submits `tasks` tasks that each wait, inside the pool, until `target` tasks are inside at
    /// once: reaching the target depends only on the pool letting them in, however long its
    /// threads take to start. (The operation queue runs on libdispatch's global threads, which
    /// grow by about one a second past the core count.) The two minutes are a guard against a
    /// pool that never lets them in, which then fails instead of hanging.
    static func peak(_ pool: any WorkerPool, tasks: Int, target: Int) -> Int {
        let gauge = ConcurrencyGauge()
        let released = ReleaseFlag()
        let group = DispatchGroup()
        for _ in 0..<tasks {
            group.enter()
            pool.submit {
                gauge.enter()
                while gauge.peak.load(ordering: .relaxed) < target && !released.value.load(ordering: .relaxed) {
                    SleepWaiter().wait(microseconds: 500)
                }
                gauge.leave()
                group.leave()
            }
        }
        let guardEnd = DispatchTime.now() + 120
        while gauge.peak.load(ordering: .relaxed) < target && DispatchTime.now() < guardEnd {
            SleepWaiter().wait(microseconds: 1_000)
        }
        released.value.store(true, ordering: .relaxed)
        group.wait()
        pool.shutdown()
        return gauge.peak.load(ordering: .relaxed)
    }

    @Test(arguments: [PoolKind.queuePool, .threadPool, .operationQueue])
    func ownThreadsReachExactlyN(kind: PoolKind) {
        for size in [1, 5] {
            let pool = SystemPoolFactory().make(kind, size: size, qos: .default)
            #expect(pool.kind == kind)
            #expect(pool.size == size)
            #expect(Self.peak(pool, tasks: size * 3, target: size) == size)
        }
    }

    @Test func threadPoolReachesTwoHundredFiftySix() {
        #expect(Self.peak(ThreadPool(size: 256), tasks: 256, target: 256) == 256)
    }

    @Test(arguments: PoolKind.inProcess)
    func neverExceedsN(kind: PoolKind) {
        let pool = SystemPoolFactory().make(kind, size: 3, qos: .default)
        let gauge = ConcurrencyGauge()
        let group = DispatchGroup()
        // Twelve blocking tasks at once: the pool must hold all but three back.
        for _ in 0..<12 {
            group.enter()
            pool.submit {
                gauge.enter()
                SleepWaiter().wait(microseconds: 3_000)
                gauge.leave()
                group.leave()
            }
        }
        group.wait()
        pool.shutdown()
        #expect(gauge.peak.load(ordering: .relaxed) <= 3)
        #expect(gauge.total.load(ordering: .relaxed) == 12, "every task ran")
    }

    @Test func threadPoolAppliesTheTierNice() {
        // Positive nice needs no privileges, so utility (+2) must take effect.
        let pool = ThreadPool(size: 1, qos: .utility)
        let nice = Mutex<Int>(99)
        let done = DispatchSemaphore(value: 0)
        pool.submit {
            nice.withLock { $0 = MachineProbe.niceOfCurrentThread() }
            done.signal()
        }
        done.wait()
        pool.shutdown()
        #expect(nice.withLock { $0 } == 2)
    }
}

/// A flag the test thread sets and pool threads read.
final class ReleaseFlag: Sendable {
    let value = Atomic<Bool>(false)
}
