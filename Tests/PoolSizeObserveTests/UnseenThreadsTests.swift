import PoolSizeModel
import Testing
@testable import PoolSizeObserve

/// Threads that start and end between two sweeps are never read, but the process's stat
/// (utime + stime) counts them: replayed from recorded texts, the process's CPU and what no sweep
/// saw are worked out by hand.
struct UnseenThreadsTests {
    /// A process stat line with `utime` and `stime` ticks (fields 14 and 15).
    static func processStat(utime: Int, stime: Int) -> String {
        "10 (app) S 1 1 1 0 -1 0 0 0 0 0 \(utime) \(stime) 0 0 20 0 4 0 100 0 0\n"
    }

    /// Sweeps at 100, 101 and 102 s, 100 ticks a second. One thread, app (10), is read every
    /// time: 1.0, 1.1, 1.2 s of CPU (0.1 core). The process's stat: 300, 340 and 380 ticks
    /// (3.0, 3.4, 3.8 s), so 0.8 s over 2 s, 0.4 core, of which the thread's 0.2 s was seen and
    /// 0.6 s, 0.3 core, went to threads that lived between the sweeps. `deltaTicks` overrides the
    /// per-second growth of the stat.
    static func recording(deltaTicks: Int = 40) -> ProcRecording {
        ProcRecording(
            header: EstimatorFixtures.header(cores: 2),
            sweeps: (0..<3).map { n in
                let ticks = 300 + deltaTicks * n
                return RawSweep(
                    timeSeconds: 100 + Double(n),
                    threads: [
                        EstimatorFixtures.thread(
                            10, "app", "S", cpu: 1_000_000_000 + UInt64(n) * 100_000_000, queue: 0,
                            syscall: EstimatorFixtures.call(202))
                    ],
                    processes: [RawProcessStat(pid: 10, stat: processStat(utime: ticks - 100, stime: 100))])
            })
    }

    @Test func theProcessCountsThreadsNoSweepSaw() throws {
        let observation = ObservationEstimator.estimate(Self.recording().record, settings: EstimatorSettings())
        #expect(observation.pools.count == 1)
        #expect(TimelineTests.close(observation.pools.first?.cpuCores, 0.1))
        #expect(TimelineTests.close(observation.processCPUCores, 0.4))
        #expect(TimelineTests.close(observation.unseenThreadCPUCores, 0.3))
    }

    /// The recording reads back with the stats: the figures come from the texts, not memory.
    @Test func theStatsAreRecorded() throws {
        let decoded = try ProcRecording.decode(Self.recording().encoded())
        #expect(decoded == Self.recording())
        let observation = ObservationEstimator.estimate(decoded.record, settings: EstimatorSettings())
        #expect(TimelineTests.close(observation.unseenThreadCPUCores, 0.3))
    }

    /// The stat grows by 11 ticks a second where the thread used 10: a tick each second is the
    /// stat's rounding, so nothing is unseen. An older recording without stats has no figures.
    @Test func roundingIsNotAThread() throws {
        let observation = ObservationEstimator.estimate(
            Self.recording(deltaTicks: 11).record, settings: EstimatorSettings())
        #expect(TimelineTests.close(observation.processCPUCores, 0.11))
        #expect(observation.unseenThreadCPUCores == 0)
        let old = ObservationEstimator.estimate(EstimatorFixtures.recording.record, settings: EstimatorSettings())
        #expect(old.processCPUCores == nil && old.unseenThreadCPUCores == nil)
    }
}
