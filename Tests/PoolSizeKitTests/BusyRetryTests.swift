import PoolSizeKit
import PoolSizeModel
import Synchronization
import Testing

/// Real clocks, except that the machine looks fully busy with other work: every read of the
/// machine's busy CPU jumps by 100 CPU-seconds.
final class BusyMachineClocks: MeasurementClocks {
    let real = SystemClocks()
    let reads = Atomic<UInt64>(0)
    func wallNanoseconds() -> UInt64 { real.wallNanoseconds() }
    func threadCPUNanoseconds() -> UInt64 { real.threadCPUNanoseconds() }
    func processUsage() -> ProcessUsage { real.processUsage() }
    func machineBusyNanoseconds() -> UInt64? { reads.wrappingAdd(1, ordering: .relaxed).newValue * 100_000_000_000 }
}

final class RecordingObserver: SweepObserver {
    var retries = 0
    var records: [TrialRecord] = []
    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int]) {}
    func sweepWillRunTrial(_ index: Int, of total: Int, combination: Combination, poolSize: Int, repetition: Int) {}
    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError) { records.append(record) }
    func sweepRetryingBusyTrial(otherLoad: Double) { retries += 1 }
    var extensions: [[Int]] = []
    func sweepExtendingSizes(_ sizes: [Int]) { extensions.append(sizes) }
}

@Suite struct BusyRetryTests {
    static let spec = WorkloadSpec(name: "tiny", cpuMicroseconds: 100, waitMicroseconds: 400, trialMilliseconds: 40)

    @Test func busyTrialsAreRunAgainThenKept() throws {
        let observer = RecordingObserver()
        let plan = SweepPlan(runID: "r", spec: Self.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0, cores: 2, busyRetries: 1)
        _ = try SweepRunner(runner: TrialRunner(clocks: BusyMachineClocks())).run(plan, observer: observer)
        // Each of the two trials looked busy, was run once more, and one record was kept.
        #expect(observer.retries == 2)
        #expect(observer.records.count == 2)
        #expect(observer.records.allSatisfy { $0.otherLoad > plan.busyThreshold })
    }

    /// A machine busy all along: 8 trials may retry 8 / 4 = 2 times in all, not 8 × 2.
    @Test func retriesAreCappedAtAQuarterOfTheTrials() throws {
        let observer = RecordingObserver()
        let plan = SweepPlan(runID: "r", spec: Self.spec, sizes: .explicit([1, 2, 3, 4]), repetitions: 2, warmupTrials: 0, cores: 2, busyRetries: 2)
        _ = try SweepRunner(runner: TrialRunner(clocks: BusyMachineClocks())).run(plan, observer: observer)
        #expect(observer.retries == 2)
        #expect(observer.records.count == 8)
    }

    @Test func zeroRetriesKeepsTheFirstAttempt() throws {
        let observer = RecordingObserver()
        let plan = SweepPlan(runID: "r", spec: Self.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0, cores: 2, busyRetries: 0)
        _ = try SweepRunner(runner: TrialRunner(clocks: BusyMachineClocks())).run(plan, observer: observer)
        #expect(observer.retries == 0)
        #expect(observer.records.count == 2)
    }
}

@Suite struct AutoExtensionTests {
    /// Sized for 1 core on a 2-core machine with W/C = 1: P = 2, so auto measures 1…4, and the
    /// machine's real knee is 2 × (1 + 1) = 4, the end of that grid (size 3 reaches at most 3/4
    /// of it). Throughput is still rising at the end, so auto measures 6 and 8 as well.
    @Test func autoMeasuresPastARisingEnd() throws {
        let observer = RecordingObserver()
        let spec = WorkloadSpec(name: "half", cpuMicroseconds: 1000, waitMicroseconds: 1000, trialMilliseconds: 100)
        let plan = SweepPlan(runID: "r", spec: spec, sizes: .auto, repetitions: 1, warmupTrials: 0, cores: 1, busyRetries: 0)
        let (_, records) = try SweepRunner().run(plan, observer: observer)
        let added = try #require(observer.extensions.first)
        let measured = Set(records.map(\.poolSize))
        let gridEnd = try #require(measured.subtracting(observer.extensions.flatMap { $0 }).max())
        #expect(added == [Int((1.5 * Double(gridEnd)).rounded()), 2 * gridEnd])
        #expect(measured.isSuperset(of: Set(added)))
    }
}
