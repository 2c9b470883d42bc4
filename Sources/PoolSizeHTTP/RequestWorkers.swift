import Foundation
import PoolSizeKit
import Synchronization

/// `poolsize serve --workers N`: a thread-per-request pool, as gunicorn's gthread workers or a
/// Tomcat executor. The event loop hands each request to an unbounded FIFO; one of `count`
/// threads takes it, burns its CPU, then sleeps through its delay still holding the thread, and
/// only then gives the answer back to the loop. So at most `count` requests are in service and
/// the rest wait their turn: the server's throughput over `count` has its knee near
/// cores × (1 + delay / CPU), the formula a sweep is there to check.
final class RequestWorkers: @unchecked Sendable {
    // @unchecked: `stopped` is only touched with `wake` held; the rest is immutable or atomic.
    /// The threads.
    let count: Int
    private let pool: ThreadPool
    private let counters: ServerCounters
    private let burner: CPUBurner
    /// Sleeping workers wait on it, so that `stop` can end a long delay at once.
    private let wake = NSCondition()
    private var stopped = false

    init(count: Int, counters: ServerCounters, burner: CPUBurner) {
        self.count = count
        self.counters = counters
        self.burner = burner
        self.pool = ThreadPool(size: count)
    }

    /// Queues one request: a worker burns `cpuMicroseconds` on its thread, sleeps
    /// `delayMicroseconds` holding it, then calls `answer` (which must hop to the request's loop).
    func serve(cpuMicroseconds: Double, delayMicroseconds: Double, answer: @escaping @Sendable () -> Void) {
        counters.mostQueued.max(counters.queued.wrappingAdd(1, ordering: .relaxed).newValue, ordering: .relaxed)
        pool.submit { [self] in
            counters.queued.wrappingSubtract(1, ordering: .relaxed)
            let busy = counters.busyWorkers.wrappingAdd(1, ordering: .relaxed).newValue
            counters.mostBusyWorkers.max(busy, ordering: .relaxed)
            LoadHandler.burn(microseconds: cpuMicroseconds, burner: burner, counters: counters)
            hold(microseconds: delayMicroseconds)
            // Free before the answer leaves, as a real worker is once it has written it: a
            // client that has its answer may find the worker taken by the next request.
            counters.busyWorkers.wrappingSubtract(1, ordering: .relaxed)
            answer()
        }
    }

    /// Blocks this thread for the delay (a timed wait, so the thread is held as by a blocking
    /// call), or until `stop`.
    private func hold(microseconds: Double) {
        guard microseconds > 0 else { return }
        let deadline = Date(timeIntervalSinceNow: microseconds / 1e6)
        wake.lock()
        defer { wake.unlock() }
        while !stopped && wake.wait(until: deadline) {}
    }

    /// Wakes every sleeping worker, lets the queue drain (each request left skips its CPU and
    /// its delay) and joins the threads. The event loops must still run: the answers go to them.
    func stop() {
        wake.lock()
        stopped = true
        wake.broadcast()
        wake.unlock()
        pool.shutdown()
    }
}
