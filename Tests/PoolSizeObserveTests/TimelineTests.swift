import PoolSizeModel
import Testing
@testable import PoolSizeObserve

/// The per-pool timeline (`PoolSlice`), every figure worked out by hand: on
/// `EstimatorFixtures.recording`, on sweeps whose interval straddles a second, and on the
/// recording of a real process.
struct TimelineTests {
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    /// Sweeps at 100, 101 and 102 s: each interval is one slice. Slice 0: worker-1 and worker-2
    /// one second each (2 threads), C 0.2 + 0.1 = 0.3 s, Q 0.05 s; its samples: read pipe (IO)
    /// and running, so the off-CPU 1 − 0.15 − 0.025 = 0.825 is all IO. Slice 1: worker-3 joins
    /// at 101.5 s: 2.5 thread-seconds, C 0.2 + 0.1 + 0.05 = 0.35 s, Q 0.05 + 0.05 = 0.1 s;
    /// samples futex, epoll_wait, read socket split the off-CPU 1 − 0.14 − 0.04 = 0.82 in thirds.
    @Test func eachIntervalInItsSecond() throws {
        let observation = ObservationEstimator.estimate(
            EstimatorFixtures.recording.record, settings: EstimatorSettings())
        let worker = try #require(observation.pools.first { $0.name == "worker" })
        #expect(worker.timeline.count == 2)
        let first = worker.timeline[0], second = worker.timeline[1]
        #expect(first.startSeconds == 0 && first.endSeconds == 1 && second.startSeconds == 1 && second.endSeconds == 2)
        #expect(Self.close(first.meanThreads, 2) && Self.close(second.meanThreads, 2.5))
        #expect(Self.close(first.cpuCores, 0.3) && Self.close(second.cpuCores, 0.35))
        #expect(first.samples == 2 && second.samples == 3)
        let a = try #require(first.shares), b = try #require(second.shares)
        #expect(Self.close(a.running, 0.15) && Self.close(a.runnable, 0.025) && Self.close(a.blockedIO, 0.825))
        #expect(a.ambiguous == 0 && a.idle == 0)
        #expect(Self.close(b.running, 0.14) && Self.close(b.runnable, 0.04))
        #expect(Self.close(b.blockedIO, 0.82 / 3) && Self.close(b.ambiguous, 0.82 / 3) && Self.close(b.idle, 0.82 / 3))
        let app = try #require(observation.pools.first { $0.name == "app" })
        #expect(app.timeline.count == 2, "every pool has the same slices")
    }

    /// Sweeps at 100, 100.5 and 101.5 s, one thread: the second interval straddles the first
    /// second and is split half and half, its CPU (0.2 s) and its sample (read pipe, IO) too.
    /// Slice 0: 1 thread-second, C 0.1 + 0.1 = 0.2; off-CPU 0.8 split idle 1 : IO 0.5. Slice 1
    /// (1 to 1.5 s): 0.5 thread-seconds, C 0.1, off-CPU all IO.
    @Test func anIntervalAcrossASecondIsSplitInProportion() throws {
        let f = EstimatorFixtures.self
        let recording = ProcRecording(
            header: f.header(cores: 2),
            sweeps: [
                RawSweep(
                    timeSeconds: 100,
                    threads: [
                        f.thread(
                            11, "worker-1", "S", cpu: 0, queue: 0, syscall: f.call(232), link: "anon_inode:[eventpoll]",
                            waitSet: f.listening)
                    ]),
                RawSweep(
                    timeSeconds: 100.5,
                    threads: [
                        f.thread(
                            11, "worker-1", "S", cpu: 100_000_000, queue: 0, syscall: f.call(232),
                            link: "anon_inode:[eventpoll]", waitSet: f.listening)
                    ]),
                RawSweep(
                    timeSeconds: 101.5,
                    threads: [
                        f.thread(11, "worker-1", "S", cpu: 300_000_000, queue: 0, syscall: f.call(0), link: "pipe:[7]")
                    ]),
            ])
        let worker = try #require(
            ObservationEstimator.estimate(recording.record, settings: EstimatorSettings()).pools.first)
        #expect(worker.timeline.count == 2)
        let first = worker.timeline[0], second = worker.timeline[1]
        #expect(first.endSeconds == 1 && second.endSeconds == 1.5)
        #expect(Self.close(first.meanThreads, 1) && Self.close(second.meanThreads, 1))
        #expect(Self.close(first.cpuCores, 0.2) && Self.close(second.cpuCores, 0.2))
        #expect(first.samples == 1 && second.samples == 1, "a sample counts where its sweep is")
        let a = try #require(first.shares), b = try #require(second.shares)
        #expect(Self.close(a.running, 0.2) && Self.close(a.idle, 0.8 / 1.5) && Self.close(a.blockedIO, 0.4 / 1.5))
        #expect(Self.close(b.running, 0.2) && Self.close(b.blockedIO, 0.8) && b.idle == 0)
    }

    /// A last sweep a moment past a whole second joins the slice before it: 2.05 s make two
    /// slices, the second 1.05 s long, not a third of 0.05 s.
    @Test func aLastSliverJoinsTheSliceBeforeIt() throws {
        let f = EstimatorFixtures.self
        let sweeps = [100.0, 101, 102.05].enumerated().map { index, time in
            RawSweep(
                timeSeconds: time,
                threads: [
                    f.thread(
                        11, "worker-1", "S", cpu: UInt64(index) * 100_000_000, queue: 0, syscall: f.call(0),
                        link: "pipe:[7]")
                ])
        }
        let worker = try #require(
            ObservationEstimator.estimate(
                ProcRecording(header: f.header(cores: 2), sweeps: sweeps).record, settings: EstimatorSettings()
            ).pools.first)
        #expect(worker.timeline.map(\.endSeconds).map { ($0 * 100).rounded() / 100 } == [1, 2.05])
        #expect(Self.close(worker.timeline[1].meanThreads, 1), "1.05 thread-seconds over 1.05 s")
    }

    /// The slice length: a second up to an hour of observation, powers of two seconds beyond
    /// (the grid widens by merging pairs of slices as the observation runs).
    @Test func slicesWidenPastAnHour() {
        #expect(ObservationEstimator.sliceSeconds(durationSeconds: 30) == 1)
        #expect(ObservationEstimator.sliceSeconds(durationSeconds: 3600) == 1)
        #expect(ObservationEstimator.sliceSeconds(durationSeconds: 3601) == 2)
        #expect(ObservationEstimator.sliceSeconds(durationSeconds: 7200) == 2)
        #expect(ObservationEstimator.sliceSeconds(durationSeconds: 7201) == 4)
        #expect(ObservationEstimator.sliceSeconds(durationSeconds: 86_400) == 32)
    }

    /// The recording of pool_target (Tests/Fixtures/observe/c-pool.json), pool `worker`, worked
    /// out from the raw texts apart from this code (schedstat deltas spread over the seconds each
    /// interval overlaps, samples classified by syscall number: 0 read IO, 232 epoll_wait on an
    /// unrecorded set ambiguous). Slice 0 (0–1 s): 2 threads, C 0.095721 cores, 36 samples,
    /// running 0.047860, runnable 0.001787, IO 0.059241, ambiguous 0.891112. Slice 1 (1–1.600 s):
    /// C 0.100156 cores, 22 samples, running 0.050078, runnable 0.012741, IO 0.179230, ambiguous
    /// 0.757950.
    @Test func theRecordedPoolSecondBySecond() throws {
        let observation = ObservationEstimator.estimate(
            try RecordedObservationTests.recording().record, settings: EstimatorSettings())
        let worker = try #require(observation.pools.first { $0.name == "worker" })
        #expect(worker.timeline.count == 2)
        let first = worker.timeline[0], second = worker.timeline[1]
        #expect(Self.close(first.meanThreads, 2, 1e-6) && Self.close(second.meanThreads, 2, 1e-6))
        #expect(Self.close(first.cpuCores, 0.095721, 1e-5) && Self.close(second.cpuCores, 0.100156, 1e-5))
        #expect(first.samples == 36 && second.samples == 22)
        let a = try #require(first.shares), b = try #require(second.shares)
        #expect(Self.close(a.running, 0.047860, 1e-5) && Self.close(a.runnable, 0.001787, 1e-5))
        #expect(Self.close(a.blockedIO, 0.059241, 1e-5) && Self.close(a.ambiguous, 0.891112, 1e-5))
        #expect(Self.close(b.running, 0.050078, 1e-5) && Self.close(b.runnable, 0.012741, 1e-5))
        #expect(Self.close(b.blockedIO, 0.179230, 1e-5) && Self.close(b.ambiguous, 0.757950, 1e-5))
        let threadSeconds = worker.timeline.map { $0.meanThreads * ($0.endSeconds - $0.startSeconds) }.reduce(0, +)
        #expect(
            Self.close(threadSeconds, worker.meanThreads * observation.durationSeconds, 1e-9),
            "the slices hold all the pool's thread time")
    }
}
