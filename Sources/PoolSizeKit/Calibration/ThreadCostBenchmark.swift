import CPoolSizeSys
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PoolSizeModel

/// Thread creation costs, timed the way Apple's "Thread Costs" table defines them: from the
/// call that creates the thread to the first instruction of its entry point, plus the full
/// create + join a pool pays when it adds and retires a thread.
///
/// Threads are created one at a time and joined at once, so glibc's cache of freed stacks is
/// warm from the second thread on: this is the cost of thread churn, not of a first thread.
enum ThreadCostBenchmark {
    /// One round of `count` threads: the median create → first instruction and the median
    /// create + join, in nanoseconds.
    static func round(count: Int) throws(PoolSizeError) -> (toStart: Double, createJoin: Double) {
        let stamp = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        defer { stamp.deallocate() }
        var toStart: [Double] = [], createJoin: [Double] = []
        toStart.reserveCapacity(count)
        createJoin.reserveCapacity(count)
        for _ in 0..<count {
            stamp.pointee = 0
            var thread = poolsize_thread()
            let t0 = RoundPlanner.now()
            let status = poolsize_thread_create(
                &thread,
                { argument in
                    argument!.assumingMemoryBound(to: UInt64.self).pointee = SystemClocks.read(CLOCK_MONOTONIC)
                    return nil
                }, stamp)
            guard status == 0 else {
                throw .measurementFailed(
                    "pthread_create failed (\(String(cString: strerror(status)))); raise the process's thread limit (ulimit -u)"
                )
            }
            // The thread only reads a clock, so this join cannot block for long.
            poolsize_thread_join(thread)
            let t1 = RoundPlanner.now()
            toStart.append(Double(stamp.pointee &- t0))
            createJoin.append(Double(t1 &- t0))
        }
        return (RoundPlanner.median(toStart), RoundPlanner.median(createJoin))
    }

    /// Nanoseconds `count` create + join cycles take, for sizing rounds.
    static func timed(count: Int) throws(PoolSizeError) -> UInt64 {
        let t0 = RoundPlanner.now()
        _ = try round(count: count)
        return RoundPlanner.now() &- t0
    }
}
