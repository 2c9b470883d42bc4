import PoolSizeModel
import Testing
@testable import PoolSizeObserve

/// What `ObservationAccumulator` keeps stays bounded however many samples it is fed: a million
/// synthetic samples through the same `add` a live observation calls, no clock, no sleeping;
/// its figures are worked out by hand.
struct AccumulatorBoundTests {
    static let slots = 100, sweeps = 10_000

    /// 100 thread slots swept once a second for 9,999 s (10,000 sweeps, 999,900 samples). Slot
    /// i's thread is replaced at each sweep n ≥ 1 with (n + i) % 100 == 0 by a new thread
    /// started half a second before (99 + 99 × 100 = 9,999 replacements). Every thread burns
    /// 0.25 s CPU and waits 0.05 s in the run queue per second; even slots are found running,
    /// odd ones in read on a pipe (IO). Per interval a slot adds 1 thread-second, or 0.5 for a
    /// thread new in it: 100 × 9,999 − 0.5 × 9,999 = 994,900.5 thread-seconds, so 99.5 threads
    /// on average and 24.875 cores; shares running 0.25, runnable 0.05, IO the other 0.70 (no
    /// sample was ambiguous or idle). Threads seen 100 + 9,999, started 9,999, exited 9,999.
    /// The timeline: 9,999 s past an hour and two, so 4 s slices, 2,500 of them.
    @Test func aMillionSamplesKeepABoundedState() throws {
        let running = try #require(
            ThreadReading(EstimatorFixtures.thread(1, "worker-0", "R", cpu: 0, queue: 0), clockTicksPerSecond: 100))
        let blocked = try #require(
            ThreadReading(
                EstimatorFixtures.thread(
                    1, "worker-0", "S", cpu: 0, queue: 0, syscall: EstimatorFixtures.call(0),
                    link: "pipe:[7]"),
                clockTicksPerSecond: 100))
        var accumulator = ObservationAccumulator(architecture: .x86_64, clockTicksPerSecond: 100, groupRules: [])
        var most = 0
        for n in 0..<Self.sweeps {
            let time = 1000 + Double(n)
            let readings = (0..<Self.slots).map { i -> ThreadReading in
                let generation = (n + i) / 100
                // The sweep this thread was first seen at: 0 for the first ones.
                let born = n == 0 || generation == i / 100 ? 0 : generation * 100 - i
                var reading = i % 2 == 0 ? running : blocked
                reading.tid = Int32(1_000_000 + i + 100 * generation)
                reading.comm = "worker-\(i)"
                let age = Double(n - born) + 0.5
                reading.startSeconds = born == 0 ? 0 : time - age
                reading.cpuNanoseconds = UInt64(age * 250_000_000)
                reading.runQueueNanoseconds = UInt64(age * 50_000_000)
                return reading
            }
            accumulator.add(SampleSweep(timeSeconds: time, readings: readings))
            if n % 500 == 0 { most = max(most, accumulator.heldEntries) }
        }
        most = max(most, accumulator.heldEntries)
        // 100 threads, 65 sweeps of 100 held back, 1,024 atoms, 3,601 slices, 100 names.
        #expect(most < 12_000, "held \(most) entries for \(Self.slots * Self.sweeps) samples")

        let observation = accumulator.observation(
            header: EstimatorFixtures.header(cores: 2), processes: [], settings: EstimatorSettings())
        #expect(observation.pools.count == 1)
        let worker = try #require(observation.pools.first)
        #expect(worker.name == "worker")
        #expect(observation.durationSeconds == 9_999)
        #expect(worker.samples == 999_900)
        #expect(TimelineTests.close(worker.meanThreads, 994_900.5 / 9_999))
        #expect(TimelineTests.close(worker.cpuCores, 0.25 * 994_900.5 / 9_999))
        let share = { (kind: ShareKind) in worker.shares.first { $0.kind == kind }?.fraction }
        #expect(TimelineTests.close(share(.running), 0.25) && TimelineTests.close(share(.runnable), 0.05))
        #expect(TimelineTests.close(share(.blockedIO), 0.70) && share(.ambiguous) == 0 && share(.idle) == 0)
        let interval = try #require(worker.shares.first { $0.kind == .running }?.interval95)
        #expect(TimelineTests.close(interval.lower, 0.25) && TimelineTests.close(interval.upper, 0.25))
        #expect(worker.threadsSeen == 10_099 && worker.threadsStarted == 9_999 && worker.threadsExited == 9_999)
        #expect(worker.threads == 100)
        #expect(worker.threadNames == ["worker-0", "worker-1", "worker-10", "worker-11", "worker-12"])
        #expect(worker.timeline.count == 2_500)
        #expect(worker.timeline.allSatisfy { $0.endSeconds - $0.startSeconds <= 4 })
        let threadSeconds = worker.timeline.map { $0.meanThreads * ($0.endSeconds - $0.startSeconds) }.reduce(0, +)
        #expect(TimelineTests.close(threadSeconds, 994_900.5, 1e-9))
        #expect(worker.timeline.allSatisfy { TimelineTests.close($0.shares?.running, 0.25) })
        #expect(worker.timeline.map(\.samples).reduce(0, +) == 999_900)
    }
}
