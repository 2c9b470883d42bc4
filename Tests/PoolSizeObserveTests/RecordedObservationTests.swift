import Foundation
import PoolSizeModel
import Testing
@testable import PoolSizeObserve

/// The estimator on a recording of a real process (Tests/Fixtures/observe/c-pool.json):
/// Tests/Fixtures/observe-targets/pool_target.c with 2 workers, 20 tasks/s, 20 ms of IO and
/// 5 ms of CPU per task, observed for 1.6 s at 20 sweeps/s, seed 7, on kernel 6.18 x86_64:
///
///     poolsize observe --duration 1.6s --rate 20 --seed 7 --record c-pool.json -- \
///         pool_target --workers 2 --rate 20 --io-ms 20 --cpu-ms 5
///
/// The expected figures were worked out from the raw texts apart from this code, by summing
/// schedstat deltas and counting samples by syscall number (0 read on a pipe: IO; 128
/// rt_sigtimedwait: idle; 232 epoll_wait, 271 ppoll, 230 clock_nanosleep: ambiguous, the
/// recording predating the wait sets that could tell epoll_wait's and ppoll's waits apart).
/// Pool `worker` over the 29 intervals: thread time 3.200232 s, C 0.155826071 s, Q 0.018866034 s;
/// samples: 5 running, 6 read on a pipe, 47 epoll_wait. Running 0.155826071 / 3.200232 =
/// 0.048692, runnable 0.005895, off-CPU 0.945413 split 6 : 47 into IO 0.107028 and ambiguous
/// 0.838385; W/C = 0.107028 / 0.048692 = 2.198053 up to 0.945413 / 0.048692 = 19.416; N = 2 ×
/// (1 + 2.198053) = 6.396106 up to 2 × (1 + 19.416) = 40.83.
struct RecordedObservationTests {
    static func recording() throws -> ProcRecording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/observe/c-pool.json")
        return try ProcRecording.decode(Data(contentsOf: url))
    }

    static func close(_ a: Double?, _ b: Double, _ relative: Double = 1e-5) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= relative * max(abs(b), 1e-12)
    }

    @Test func theRecordingReadsBackAsWritten() throws {
        let recording = try Self.recording()
        #expect(recording.sweeps.count == 30)
        #expect(recording.header.architecture == .x86_64)
        #expect(recording.header.cores.effective == 2)
        #expect(try ProcRecording.decode(recording.encoded()) == recording, "encoded() and decode() are one format")
    }

    @Test func theWorkerPoolMatchesTheHandWorkedFigures() throws {
        let observation = ObservationEstimator.estimate(try Self.recording().record, settings: EstimatorSettings())
        let worker = try #require(observation.pools.first { $0.name == "worker" })
        #expect(worker.threads == 2)
        #expect(worker.threadNames == ["worker-1", "worker-2"])
        #expect(worker.samples == 58)
        #expect(Self.close(worker.meanThreads * observation.durationSeconds, 3.200232))
        #expect(Self.close(worker.cpuCores * observation.durationSeconds, 0.155826071))
        #expect(Self.close(worker.queueToCPU, 0.018866034 / 0.155826071))
        #expect(Self.close(worker.share(.running)?.fraction, 0.048692, 1e-4))
        #expect(Self.close(worker.share(.runnable)?.fraction, 0.005895, 1e-3))
        #expect(Self.close(worker.share(.blockedIO)?.fraction, 0.107028, 1e-4))
        #expect(Self.close(worker.share(.ambiguous)?.fraction, 0.838385, 1e-4))
        #expect(worker.share(.idle)?.fraction == 0, "epoll_wait on an unread set is no proof of idleness")
        #expect(Self.close(worker.waitToCPU?.low, 2.198053, 1e-5))
        #expect(Self.close(worker.waitToCPU?.high, 19.416, 1e-4))
        #expect(Self.close(worker.size?.low, 6.396106, 1e-5))
        #expect(Self.close(worker.size?.high, 40.83, 1e-3))
        #expect(worker.topCalls.map(\.label) == ["epoll_wait", "read pipe"])
        #expect(worker.verdict.kind == .aboutRight, "2 threads, 16% busy, below 6.4–40.8: not the limit at this load")
    }

    @Test func theOtherPoolsOfTheTarget() throws {
        let observation = ObservationEstimator.estimate(try Self.recording().record, settings: EstimatorSettings())
        #expect(Set(observation.pools.map(\.name)) == ["worker", "device", "feeder", "pool_target"])
        let device = try #require(observation.pools.first { $0.name == "device" })
        #expect(device.topCalls.map(\.label) == ["ppoll"])
        #expect(device.verdict == PoolVerdict(kind: .undetermined, reason: .tooFewSamples), "one thread, 29 samples")
        let feeder = try #require(observation.pools.first { $0.name == "feeder" })
        #expect(feeder.topCalls.map(\.label) == ["clock_nanosleep"])
        #expect(Self.close(feeder.waitToCPU?.high, 560.491455, 1e-5), "its sleeps are ambiguous: W/C 0 to 560")
        #expect(feeder.waitToCPU?.low == 0)
        let main = try #require(observation.pools.first { $0.name == "pool_target" })
        #expect(main.topCalls.map(\.label) == ["rt_sigtimedwait"], "the main thread waits for SIGTERM")
        #expect(main.share(.idle)?.fraction ?? 0 > 0.99)
    }
}
