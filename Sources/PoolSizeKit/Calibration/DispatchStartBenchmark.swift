import Dispatch
import PoolSizeModel
import Synchronization

/// `DispatchQueue.async` until the block starts, on a warm queue: a round submits one block at a
/// time and waits for it to start before submitting the next, so the queue's worker exists but
/// has usually gone idle, as in a pool between bursts. The warm-up round makes the worker.
enum DispatchStartBenchmark {
    private final class Stamp: Sendable {
        let value = Atomic<UInt64>(0)
    }

    /// Median nanoseconds from `async` to the block's first instruction over `count` submissions.
    static func round(queue: DispatchQueue, count: Int) throws(PoolSizeError) -> Double {
        let stamp = Stamp()
        let started = DispatchSemaphore(value: 0)
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let t0 = RoundPlanner.now()
            queue.async {
                stamp.value.store(RoundPlanner.now(), ordering: .relaxed)
                started.signal()
            }
            guard started.wait(timeout: .now() + 2) == .success else {
                throw .measurementFailed(
                    "a block submitted to \(queue.label) did not start within 2 s; the machine is overloaded")
            }
            samples.append(Double(stamp.value.load(ordering: .relaxed) &- t0))
        }
        return RoundPlanner.median(samples)
    }

    /// Nanoseconds `count` submissions take end to end, for sizing rounds.
    static func timed(queue: DispatchQueue, count: Int) throws(PoolSizeError) -> UInt64 {
        let t0 = RoundPlanner.now()
        _ = try round(queue: queue, count: count)
        return RoundPlanner.now() &- t0
    }
}
