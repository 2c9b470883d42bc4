import PoolSizeModel
import PoolSizeStats
import Testing
@testable import PoolSizeObserve

/// The estimator on `EstimatorFixtures.recording`, every figure worked out by hand.
///
/// Pool `worker` over the two intervals: thread time S = 1 + 1 (worker-1) + 1 + 1 (worker-2) +
/// 0.5 (worker-3, from 101.5 s) = 4.5 s; C = 0.2 + 0.2 + 0.1 + 0.1 + 0.05 = 0.65 s;
/// Q = 0.05 + 0.05 + 0 + 0.05 = 0.15 s. Running = 0.65/4.5, runnable = 0.15/4.5, off-CPU =
/// 3.7/4.5, split over its four blocked samples (read pipe, read socket: IO; futex: ambiguous;
/// epoll_wait on a listening socket: idle) as 2/4, 1/4, 1/4: IO = 1.85/4.5, ambiguous = idle = 0.925/4.5.
struct EstimatorTests {
    static let observation = ObservationEstimator.estimate(
        EstimatorFixtures.recording.record, settings: EstimatorSettings())

    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test func poolsAreFoundAndOrderedByCPU() {
        #expect(Self.observation.pools.map(\.name) == ["worker", "app"])
        #expect(Self.close(Self.observation.durationSeconds, 2))
    }

    @Test func sharesFollowSchedstatAndTheBlockedSamples() throws {
        let worker = try #require(Self.observation.pools.first)
        #expect(Self.close(worker.share(.running)?.fraction, 0.65 / 4.5))
        #expect(Self.close(worker.share(.runnable)?.fraction, 0.15 / 4.5))
        #expect(Self.close(worker.share(.blockedIO)?.fraction, 1.85 / 4.5))
        #expect(Self.close(worker.share(.ambiguous)?.fraction, 0.925 / 4.5))
        #expect(Self.close(worker.share(.idle)?.fraction, 0.925 / 4.5))
        #expect(worker.shares.allSatisfy { $0.interval95 == nil }, "two intervals make one batch: no interval")
        #expect(Self.close(worker.busy.low, 2.65 / 4.5))
        #expect(Self.close(worker.busy.high, 3.575 / 4.5))
    }

    @Test func waitToCPUAndSizeAreRanges() throws {
        let worker = try #require(Self.observation.pools.first)
        // W/C = IO / running = 1.85 / 0.65, up to (1.85 + 0.925) / 0.65; N = 2 × (1 + W/C).
        #expect(Self.close(worker.waitToCPU?.low, 1.85 / 0.65))
        #expect(Self.close(worker.waitToCPU?.high, 2.775 / 0.65))
        #expect(Self.close(worker.size?.low, 2 * (1 + 1.85 / 0.65)))
        #expect(Self.close(worker.size?.high, 2 * (1 + 2.775 / 0.65)))
        #expect(Self.close(worker.cpuCores, 0.325))
        #expect(Self.close(worker.queueToCPU, 0.15 / 0.65))
    }

    @Test func threadsThatComeAndGoAreCounted() throws {
        let worker = try #require(Self.observation.pools.first { $0.name == "worker" })
        #expect(worker.threads == 3)
        #expect(worker.threadsSeen == 3)
        #expect(worker.threadsStarted == 1)
        #expect(worker.threadsExited == 0)
        #expect(Self.close(worker.meanThreads, 2.25))
        #expect(worker.samples == 5, "two per interval for worker-1 and worker-2, one for worker-3")
        #expect(worker.threadNames == ["worker-1", "worker-2", "worker-3"])
        let app = try #require(Self.observation.pools.first { $0.name == "app" })
        // app: 10 for both intervals, 14 for the first only: S = 3, no CPU, every sample ambiguous.
        #expect(app.threads == 2)
        #expect(app.threadsExited == 1)
        #expect(Self.close(app.meanThreads, 1.5))
        #expect(Self.close(app.share(.ambiguous)?.fraction, 1))
        #expect(app.waitToCPU == nil && app.size == nil, "no CPU: W/C is undefined")
    }

    @Test func topCallsAndPeersCountBlockedSamples() throws {
        let worker = try #require(Self.observation.pools.first)
        #expect(
            worker.topCalls == [
                LabelShare(label: "epoll_wait listening", samples: 1, fraction: 0.25),
                LabelShare(label: "futex", samples: 1, fraction: 0.25),
                LabelShare(label: "read pipe", samples: 1, fraction: 0.25),
                LabelShare(label: "read socket", samples: 1, fraction: 0.25),
            ])
        #expect(worker.topPeers == [LabelShare(label: "tcp 127.0.0.1:8080", samples: 1, fraction: 0.25)])
    }

    @Test func fewSamplesGiveNoVerdict() throws {
        #expect(Self.observation.pools[0].verdict == PoolVerdict(kind: .undetermined, reason: .tooFewSamples))
    }

    @Test func parallelismOverridesTheCores() throws {
        var recording = EstimatorFixtures.recording
        recording.header.cores.override = 1
        let worker = try #require(
            ObservationEstimator.estimate(recording.record, settings: EstimatorSettings()).pools.first)
        #expect(Self.close(worker.size?.low, 1 + 1.85 / 0.65))
    }

    @Test func groupRulesOverrideNames() throws {
        let rules = [try GroupRule(parsing: "worker-3=late")]
        let names = ObservationEstimator.estimate(
            EstimatorFixtures.recording.record, settings: EstimatorSettings(groupRules: rules)
        ).pools.map(\.name)
        #expect(Set(names) == ["worker", "late", "app"])
    }

    /// λ = 10/s for `worker` (mean 2.25 threads): C = 0.325 cores / λ = 32.5 ms; W = IO threads
    /// (1.85/4.5 × 2.25 = 0.925) / λ = 92.5 ms, up to (0.925 + 0.4625) / λ = 138.75 ms;
    /// N(λ) = λ(C + W) = 1.25 to 1.7125; Erlang C with 3 threads: 0.155473 and 0.318208 (Erlang B
    /// recurrence worked by hand). With D = 150 ms: λD = 1.5 threads in tasks, the known busy ones
    /// are 0.325 + 0.075 + 0.925 = 1.325, so 0.175 of the 0.4625 ambiguous threads are in tasks:
    /// W = (0.925 + 0.175) / λ = 110 ms.
    @Test func littlesLawWithThroughputAndLatency() throws {
        let settings = EstimatorSettings(throughputPerSecond: 10, latencySeconds: 0.15)
        let worker = try #require(
            ObservationEstimator.estimate(EstimatorFixtures.recording.record, settings: settings).pools.first)
        let task = try #require(worker.perTask)
        #expect(Self.close(task.cpuSeconds, 0.0325))
        #expect(Self.close(task.runQueueSeconds, 0.0075))
        #expect(Self.close(task.waitSeconds.low, 0.0925))
        #expect(Self.close(task.waitSeconds.high, 0.13875))
        #expect(Self.close(task.threadsNeeded.low, 1.25))
        #expect(Self.close(task.threadsNeeded.high, 1.7125))
        #expect(Self.close(task.waitProbability.low, 0.155473, 1e-5))
        #expect(Self.close(task.waitProbability.high, 0.318208, 1e-5))
        #expect(Self.close(task.resolvedWaitSeconds, 0.11))
        // Resolved: W/C = 0.11 / 0.0325, N = 2 × (1 + W/C), one figure each; λ·D = 1.5 tasks.
        #expect(Self.close(task.tasksInFlight, 1.5))
        #expect(Self.close(task.resolvedWaitToCPU, 0.11 / 0.0325))
        #expect(Self.close(task.resolvedSize, 2 * (1 + 0.11 / 0.0325)))
        #expect(
            Self.close(worker.judgedSize?.low, 2 * (1 + 0.11 / 0.0325)) && worker.judgedSize?.high == task.resolvedSize)
    }

    @Test func throughputGoesToTheNamedPool() throws {
        let settings = EstimatorSettings(throughputPerSecond: 10, throughputPool: "app")
        let pools = ObservationEstimator.estimate(EstimatorFixtures.recording.record, settings: settings).pools
        #expect(pools.first { $0.name == "app" }?.perTask != nil)
        #expect(pools.first { $0.name == "worker" }?.perTask == nil)
    }

    @Test func oneSweepOrNoneGivesNoFigures() {
        var recording = EstimatorFixtures.recording
        recording.sweeps = Array(recording.sweeps.prefix(1))
        let one = ObservationEstimator.estimate(recording.record, settings: EstimatorSettings())
        #expect(one.pools.allSatisfy { $0.samples == 0 && $0.size == nil })
        recording.sweeps = []
        #expect(ObservationEstimator.estimate(recording.record, settings: EstimatorSettings()).pools.isEmpty)
    }
}
