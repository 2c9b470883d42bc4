import CPoolSizeSys
import Dispatch
import Foundation
import PoolSizeKit
import PoolSizeModel
import PoolSizeProcess
import Synchronization

/// A closed-loop trial of a connection pool of N driven as pgbench drives it (`--client
/// async`, the default): N connections, each with one transaction in flight at all times,
/// served by a few threads (`PostgresLane`, one per core at most) that send each command without
/// blocking and wait on all their sockets at once. A thread per connection (`--client threads`)
/// measures a pool's own threads too; this measures the database behind N connections without
/// the client's threads taking the cores the server needs.
///
/// The trial has the closed loop's shape (`TrialRunner`): a warm-up, then a window of fixed
/// length or one that ends once the throughput is known (`TrialStopRule`), then a drain in which
/// each connection finishes its transaction. C per transaction is the lanes' CPU over the window
/// shared among the transactions each finished in it (one thread serves many connections, so no
/// transaction has a CPU clock of its own); W is the rest of its latency.
enum PostgresAsyncDriver {
    /// What the driver tells its lanes.
    final class Control: Sendable {
        /// Start no more transactions; finish those in progress.
        let stop = Atomic<Bool>(false)
        /// The drain took too long: close the connections still busy and return.
        let abort = Atomic<Bool>(false)
    }

    /// The lanes for `connections`: one per core at most, each with every lanes-th connection.
    static func makeLanes(
        program: PgProgram, seed: UInt64, connections: [PostgresConnection], cores: Int,
        failed: @escaping @Sendable (String) -> Void
    ) -> [PostgresLane] {
        let count = max(1, min(cores, connections.count))
        return (0..<count).map { lane in
            let numbers = Array(stride(from: lane, to: connections.count, by: count))
            return PostgresLane(
                program: program, seed: seed, connections: numbers.map { connections[$0] }, numbers: numbers,
                stride: connections.count, failed: failed)
        }
    }

    /// Runs one trial of `program` on `connections` (all open, none in use elsewhere) with
    /// `settings`, one lane per core at most; `watch` is told of the window's edges.
    static func run(
        program: PgProgram, connections: [PostgresConnection], cores: Int, settings: TrialSettings, seed: UInt64,
        watch: any TrialWindowWatch, failed: @escaping @Sendable (String) -> Void
    ) throws(PoolSizeError) -> TrialMeasurement {
        let clocks = SystemClocks()
        for connection in connections where !connection.setNonblocking(true) {
            throw .measurementFailed("libpq would not put a connection in nonblocking mode")
        }
        defer { for connection in connections { _ = connection.setNonblocking(false) } }
        let lanes = makeLanes(program: program, seed: seed, connections: connections, cores: cores, failed: failed)
        let control = Control()
        let group = DispatchGroup()
        let started = DispatchSemaphore(value: 0)
        let cpuClocks = Mutex<[Int: clockid_t]>([:])
        for (number, lane) in lanes.enumerated() {
            group.enter()
            let thread = Thread {
                _ = poolsize_set_timer_slack_ns(1)
                lane.thread = poolsize_gettid()
                var ok: Int32 = 0
                let nice = poolsize_get_thread_nice(lane.thread, &ok)
                lane.nice = ok != 0 ? nice : 0
                var clock = clockid_t()
                if pthread_getcpuclockid(pthread_self(), &clock) == 0 {
                    cpuClocks.withLock { $0[number] = clock }
                }
                started.signal()
                lane.run(control)
                group.leave()
            }
            thread.name = "poolsize-pg-\(number)"
            thread.start()
        }
        for _ in lanes { started.wait() }
        let clocksOfLanes = cpuClocks.withLock { $0 }
        func lanesCPU() -> [Int: UInt64] {
            clocksOfLanes.mapValues { clock in
                var time = timespec()
                return clock_gettime(clock, &time) == 0 ? UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec) : 0
            }
        }

        let t0 = clocks.wallNanoseconds()
        let warmup = UInt64(Double(settings.durationNanoseconds) * settings.warmupFraction)
        clocks.sleep(until: t0 + warmup)
        let busyStart = clocks.machineBusyNanoseconds()
        let usageStart = clocks.processUsage()
        let cpuStart = lanesCPU()
        let windowStart = clocks.wallNanoseconds()
        watch.windowOpened()
        let (ended, knownMargin) = wait(
            lanes: lanes, from: windowStart, length: settings.durationNanoseconds - warmup, stop: settings.stop,
            clocks: clocks)
        let windowEnd = clocks.wallNanoseconds()
        let usageEnd = clocks.processUsage()
        let cpuEnd = lanesCPU()
        let busyEnd = clocks.machineBusyNanoseconds()
        let watched = watch.windowClosed()
        let threadsNow = ProcReader.ownThreadCount()
        control.stop.store(true, ordering: .sequentiallyConsistent)
        if group.wait(timeout: .now() + settings.drainTimeoutSeconds) == .timedOut {
            control.abort.store(true, ordering: .sequentiallyConsistent)
            _ = group.wait(timeout: .now() + 5)
            throw .measurementFailed(
                "\(connections.count) connections did not finish their transactions within \(Int(settings.drainTimeoutSeconds)) s of the trial's end"
            )
        }
        var samples: [TaskSample] = []
        var failures: [String] = []
        for (number, lane) in lanes.enumerated() {
            let spent = (cpuEnd[number] ?? 0) &- min(cpuEnd[number] ?? 0, cpuStart[number] ?? 0)
            samples += withCPU(lane.samples, spent: spent, from: windowStart, to: windowEnd)
            failures += lane.failures
        }
        var measurement = TrialMeasurement(
            poolSize: connections.count, windowStart: windowStart, windowEnd: windowEnd, usageAtStart: usageStart,
            usageAtEnd: usageEnd, samples: samples, peakConcurrency: connections.count, processThreads: threadsNow)
        measurement.watched = watched
        measurement.windowEnded = ended
        measurement.knownMargin = knownMargin
        return measurement.withMachineBusy(start: busyStart, end: busyEnd).withFailures(Array(failures.prefix(5)))
    }

    /// A lane's samples with `spent`, its thread's CPU over the window, shared evenly among the
    /// transactions it finished in the window (each gets the mean; those outside it too, though
    /// they are not counted).
    static func withCPU(_ samples: [TaskSample], spent: UInt64, from start: UInt64, to end: UInt64) -> [TaskSample] {
        let inWindow = samples.count { !$0.failed && $0.ended >= start && $0.ended <= end }
        guard inWindow > 0 else { return samples }
        let each = spent / UInt64(inWindow)
        return samples.map { sample in
            var sample = sample
            sample.cpuNanoseconds = each
            return sample
        }
    }

    /// Waits out a window of `length` from `start`: to its end, or with `stop` until its
    /// throughput is known, as `TrialRunner` does, counting the lanes' completions as they
    /// come. How the window ended and, when it ended known, the margin it was known to.
    static func wait(
        lanes: [PostgresLane], from start: UInt64, length: UInt64, stop: TrialStopRule?, clocks: SystemClocks
    ) -> (ended: TrialRecord.WindowEnd, margin: Double?) {
        let deadline = start + length
        guard let stop else {
            clocks.sleep(until: deadline)
            return (.planned, nil)
        }
        var bins = CompletionBins(start: start)
        while true {
            let now = clocks.wallNanoseconds()
            if now >= deadline { return (.longest, nil) }
            clocks.sleep(until: now + min(deadline - now, TrialStopRule.interval(afterElapsed: now - min(now, start))))
            let checked = clocks.wallNanoseconds()
            for lane in lanes {
                let ends = lane.newEnds.withLock { ends in
                    defer { ends.removeAll(keepingCapacity: true) }
                    return ends
                }
                for end in ends { bins.add(end) }
            }
            let estimate = bins.estimate(at: checked)
            if stop.isKnown(estimate, elapsed: checked - min(checked, start)) {
                return (.known, estimate?.relativeHalfWidth)
            }
        }
    }
}
