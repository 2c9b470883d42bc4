import Dispatch
import Foundation
import PoolSizeKit
import Synchronization
import Testing

/// The thread pool's hand-off of a worker's own submission: it runs next on that worker when
/// nothing is queued and no worker waits (`submitFollowing`), and goes through the shared FIFO
/// otherwise.
@Suite struct ThreadPoolHandOffTests {
    /// Waits (at most 10 s) until `pool` shows `count` work items queued plus workers waiting.
    static func settle(_ pool: ThreadPool, at count: Int) -> Bool {
        let end = DispatchTime.now() + 10
        while pool.queuedOrWaiting != count && DispatchTime.now() < end { usleep(1_000) }
        return pool.queuedOrWaiting == count
    }

    @Test func aSubmissionWhileEveryWorkerIsBusyRunsNextOnTheSubmitter() throws {
        let pool = ThreadPool(size: 2)
        defer { pool.shutdown() }
        #expect(Self.settle(pool, at: 2), "both workers wait for work")
        let release = DispatchSemaphore(value: 0)
        let blockerStarted = DispatchSemaphore(value: 0)
        let threads = Mutex<(submitter: UInt, follower: UInt)>((0, 0))
        let followed = DispatchSemaphore(value: 0)
        pool.submit {
            blockerStarted.signal()
            release.wait()
        }
        #expect(blockerStarted.wait(timeout: .now() + 10) == .success)
        #expect(Self.settle(pool, at: 1), "one worker blocked, the other waits")
        pool.submit {
            threads.withLock { $0.submitter = UInt(pthread_self()) }
            // The other worker is busy and nothing is queued: this one's follower is its own.
            // Kept on running past its hand-over, against the rule, to show where the follower went.
            pool.submitFollowing {
                threads.withLock { $0.follower = UInt(pthread_self()) }
                followed.signal()
            }
            // Frees the other worker, which would take the follower from the FIFO were it there.
            release.signal()
            usleep(50_000)
        }
        #expect(followed.wait(timeout: .now() + 10) == .success)
        let seen = threads.withLock { $0 }
        #expect(seen.submitter != 0 && seen.follower == seen.submitter)
    }

    @Test func aSubmissionWhileAWorkerWaitsGoesToThatWorker() {
        let pool = ThreadPool(size: 2)
        defer { pool.shutdown() }
        #expect(Self.settle(pool, at: 2), "both workers wait for work")
        let followerRan = DispatchSemaphore(value: 0)
        let result = Mutex<(submitter: UInt, follower: UInt, waited: Bool)>((0, 0, false))
        let done = DispatchSemaphore(value: 0)
        pool.submit {
            let me = UInt(pthread_self())
            pool.submitFollowing {
                result.withLock { $0.follower = UInt(pthread_self()) }
                followerRan.signal()
            }
            // Kept on this worker, the follower could not run before this task ends: the waiting
            // worker runs it.
            let ran = followerRan.wait(timeout: .now() + 10) == .success
            result.withLock {
                $0.submitter = me
                $0.waited = ran
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        let seen = result.withLock { $0 }
        #expect(seen.waited, "the follower ran while its submitter was still running")
        #expect(seen.follower != 0 && seen.follower != seen.submitter)
    }

    @Test func oneWorkerRunsItemsInTheOrderTheyWereSubmitted() {
        // A worker's own item and items put in the FIFO by others around it: whichever way they
        // interleave, they run in the order of their submissions (each recorded, under one lock,
        // with its submit).
        for _ in 0..<200 {
            let pool = ThreadPool(size: 1)
            let submitting = Mutex<[Int]>([])
            let ran = Mutex<[Int]>([])
            let group = DispatchGroup()
            @Sendable func submit(_ id: Int, then more: [Int] = [], following: Bool = false) {
                group.enter()
                submitting.withLock { order in
                    order.append(id)
                    let work: @Sendable () -> Void = {
                        ran.withLock { $0.append(id) }
                        for next in more { submit(next, following: true) }
                        group.leave()
                    }
                    if following { pool.submitFollowing(work) } else { pool.submit(work) }
                }
            }
            submit(0, then: [1, 2])
            submit(3)
            submit(4)
            #expect(group.wait(timeout: .now() + 10) == .success)
            pool.shutdown()
            let expected = submitting.withLock { $0 }
            #expect(ran.withLock { $0 } == expected)
            #expect(expected.count == 5)
        }
    }
}
