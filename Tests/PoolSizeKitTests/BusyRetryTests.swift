import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// Trials whose numbers are a function of the pool size: the sweep's policy (retries, auto
/// extension, order) tested without pools, threads or clocks.
final class ScriptedTrials: TrialMeasuring, @unchecked Sendable {
    let throughput: (Int) -> Double
    let otherLoad: Double
    private(set) var requests: [TrialRequest] = []

    init(otherLoad: Double = 0, throughput: @escaping (Int) -> Double) {
        self.throughput = throughput
        self.otherLoad = otherLoad
    }

    func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        requests.append(request)
        // C = W = 1 ms per task, the same for every task: W/C is exactly 1 at low load.
        let metrics = TrialMetrics(
            windowSeconds: 1, throughputPerSecond: throughput(request.size), cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 1000,
            utilization: 0.5, peakConcurrency: request.size, threads: request.size,
            otherLoad: request.lowLoad ? 0 : otherLoad)
        return (metrics, nil)
    }
}

final class RecordingObserver: SweepObserver {
    var retries = 0
    var records: [TrialRecord] = []
    var extensions: [[Int]] = []
    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {}
    func sweepWillRunTrial(_ index: Int, of total: Int, combination: Combination, poolSize: Int, repetition: Int) {}
    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) { records.append(record) }
    func sweepRetryingBusyTrial(otherLoad: Double) { retries += 1 }
    func sweepExtendingSizes(_ sizes: [Int]) { extensions.append(sizes) }
}

@Suite struct BusyRetryTests {
    static let spec = WorkloadSpec(name: "tiny", cpuMicroseconds: 1000, waitMicroseconds: 1000, trialMilliseconds: 40)

    static func run(_ plan: SweepPlan, _ trials: ScriptedTrials) throws -> RecordingObserver {
        let observer = RecordingObserver()
        _ = try SweepRunner(measurer: trials, declaredTaskNanoseconds: 2_000_000).run(plan, observer: observer)
        return observer
    }

    @Test func busyTrialsAreRunAgainThenKept() throws {
        let plan = SweepPlan(
            runID: "r", spec: Self.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0, cores: 2,
            busyRetries: 1)
        let trials = ScriptedTrials(otherLoad: 0.5) { Double($0) * 500 }
        let observer = try Self.run(plan, trials)
        // Each of the two trials looked busy, was run once more, and one record was kept.
        #expect(observer.retries == 2)
        #expect(observer.records.count == 2)
        #expect(trials.requests.filter { !$0.lowLoad }.count == 4)
        #expect(observer.records.allSatisfy { $0.otherLoad == 0.5 })
    }

    /// A machine busy all along: 8 trials may retry 8 / 4 = 2 times in all, not 8 × 2.
    @Test func retriesAreCappedAtAQuarterOfTheTrials() throws {
        let plan = SweepPlan(
            runID: "r", spec: Self.spec, sizes: .explicit([1, 2, 3, 4]), repetitions: 2, warmupTrials: 0, cores: 2,
            busyRetries: 2)
        let observer = try Self.run(plan, ScriptedTrials(otherLoad: 0.5) { Double($0) * 500 })
        #expect(observer.retries == 2)
        #expect(observer.records.count == 8)
    }

    @Test func zeroRetriesKeepsTheFirstAttempt() throws {
        let plan = SweepPlan(
            runID: "r", spec: Self.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0, cores: 2,
            busyRetries: 0)
        let trials = ScriptedTrials(otherLoad: 0.5) { Double($0) * 500 }
        let observer = try Self.run(plan, trials)
        #expect(observer.retries == 0)
        #expect(observer.records.count == 2)
        #expect(trials.requests.filter { !$0.lowLoad }.count == 2)
    }

    @Test func quietTrialsRunOnceEach() throws {
        let plan = SweepPlan(
            runID: "r", spec: Self.spec, sizes: .explicit([1, 2, 4]), repetitions: 3, warmupTrials: 1, cores: 2,
            busyRetries: 2)
        let trials = ScriptedTrials { Double($0) * 500 }
        let observer = try Self.run(plan, trials)
        #expect(observer.retries == 0)
        #expect(observer.records.count == 9)
        // One warm-up trial at the largest size, then the nine in a shuffled order.
        let sweep = trials.requests.filter { !$0.lowLoad }
        #expect(sweep.count == 10 && sweep[0].size == 4)
        #expect(Set(observer.records.map { "\($0.poolSize)/\($0.repetition)" }).count == 9)
    }
}

@Suite struct AutoExtensionTests {
    /// W/C = 1 on 1 core: the formula predicts 2, so auto measures a grid around 2. Throughput
    /// that rises with every size never reaches a knee, so auto measures 1.5× and 2× the grid's
    /// end, then 1.5× and 2× the new end, and stops (twice at most).
    @Test func autoMeasuresPastARisingEndTwice() throws {
        let plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .auto, repetitions: 1, warmupTrials: 0, cores: 1,
            busyRetries: 0)
        let observer = try BusyRetryTests.run(plan, ScriptedTrials { Double($0) * 500 })
        let measured = Set(observer.records.map(\.poolSize))
        let gridEnd = try #require(measured.subtracting(observer.extensions.flatMap { $0 }).max())
        #expect(
            observer.extensions == [
                [Int((1.5 * Double(gridEnd)).rounded()), 2 * gridEnd], [3 * gridEnd, 4 * gridEnd],
            ])
        #expect(measured.isSuperset(of: Set(observer.extensions.flatMap { $0 })))
    }

    /// A curve that flattens inside the grid is not extended.
    @Test func autoStopsAtAPlateau() throws {
        let plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .auto, repetitions: 1, warmupTrials: 0, cores: 1,
            busyRetries: 0)
        let observer = try BusyRetryTests.run(plan, ScriptedTrials { Double(min($0, 2)) * 500 })
        #expect(observer.extensions.isEmpty)
    }
}
