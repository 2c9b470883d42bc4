import Foundation
import PoolSizeModel
import Testing

/// A trial record holds its loop as a case: closed, or open with its figures. Its encoded form
/// is the one it had when the open loop was an optional field (`openLoop`, absent for the closed
/// loop), and the plan's load answers the questions that differ by loop.
@Suite struct TrialRecordLoopTests {
    static let figures = OpenLoopFigures(
        arrivalRate: 800, offeredPerSecond: 790.5, achievedPerSecond: 788.25, backlogMean: 3.5, backlogMax: 12,
        backlogGrowth: -0.25, stable: true, unfinished: 2, dispatchLagP99Microseconds: 41.5)

    static let sharedKeys = [
        "cpuMicrosecondsPerTask", "criticalSections", "effectiveNice", "errors", "execution", "integrity",
        "involuntaryContextSwitches", "latency", "maxRSSKilobytes", "otherLoad", "peakConcurrency", "pool", "poolSize",
        "primitive", "processThreads", "qos", "repetition", "runID", "sizeSteps", "tasks", "threads",
        "throughputPerSecond", "utilization", "voluntaryContextSwitches", "waitCPURatio", "waitMicrosecondsPerTask",
        "wallSeconds", "workload",
    ]

    static func object(_ record: TrialRecord) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(record)) as? [String: Any])
    }

    @Test func aClosedLoopRecordEncodesNoOpenLoopKeyAndReadsBackClosed() throws {
        let record = TrialValidityTests.record()
        #expect(try Self.object(record).keys.sorted() == Self.sharedKeys)
        let back = try JSONDecoder().decode(TrialRecord.self, from: try JSONEncoder().encode(record))
        #expect(back == record)
        #expect(back.loop == .closed && back.openLoop == nil && !back.isOpenLoop && back.arrivalRate == nil)
    }

    @Test func anOpenLoopRecordEncodesItsFiguresUnderOpenLoopAndReadsBackOpen() throws {
        var record = TrialValidityTests.record()
        record.loop = .open(Self.figures)
        record.invalidReason = "a reason"
        let object = try Self.object(record)
        #expect(object.keys.sorted() == (Self.sharedKeys + ["invalidReason", "openLoop"]).sorted())
        let open = try #require(object["openLoop"] as? [String: Any])
        #expect(open["offeredPerSecond"] as? Double == 790.5)
        #expect(open["backlogMax"] as? Int == 12)
        let back = try JSONDecoder().decode(TrialRecord.self, from: try JSONEncoder().encode(record))
        #expect(back == record)
        #expect(back.openLoop == Self.figures && back.isOpenLoop && back.arrivalRate == 800)
    }

    @Test func onlyAnOpenLoopFigureCanBeChangedInPlace() {
        var closed = TrialRecord.Loop.closed
        closed.updateFigures { $0.stable = false }
        #expect(closed == .closed)
        var open = TrialRecord.Loop.open(Self.figures)
        open.updateFigures { $0.backlogMax = 99 }
        #expect(open.figures?.backlogMax == 99)
        #expect(TrialRecord.Loop(figures: nil) == .closed)
        #expect(TrialRecord.Loop(figures: Self.figures) == .open(Self.figures))
    }

    @Test func onlyAnOpenLoopsDispatcherShortfallIsAProblemOfItsLoop() {
        var short = Self.figures
        short.offeredPerSecond = 0
        #expect(TrialRecord.Loop.closed.problem(windowSeconds: 1) == nil)
        #expect(TrialRecord.Loop.open(Self.figures).problem(windowSeconds: 1) == nil)
        #expect(
            TrialRecord.Loop.open(short).problem(windowSeconds: 1)
                == "the dispatcher offered 0/s of the 800/s asked: this machine cannot hand tasks to a pool that fast, so the trial did not measure that rate (lower the arrival rate)"
        )
        // A shortfall names its own fix: a longer trial would not cure it.
        var record = TrialValidityTests.record()
        record.loop = .open(short)
        record.invalidReason = TrialValidity.problem(record, cores: 2)
        #expect(record.invalidReason != nil)
        #expect(!TrialValidity.mayPassWhenLonger(record))
        record.loop = .closed
        record.invalidReason = TrialValidity.problem(TrialValidityTests.record(throughput: 2888), cores: 2)
        #expect(TrialValidity.mayPassWhenLonger(record))
    }

    @Test func theLoadAnswersTheDefaultsThatDifferByLoop() {
        let one = Load.open(ArrivalPlan(rates: [800]))
        let range = Load.open(ArrivalPlan(rates: [200, 400]))
        #expect([Load.closed, one, range].map(\.defaultRepetitions) == [3, 3, 1])
        #expect([Load.closed, one, range].map(\.plansTrialsAhead) == [true, true, false])
        #expect([Load.closed, one, range].map(\.hasThroughputKnee) == [true, false, false])
        #expect(Load.closed.defaultSearch(sizes: .auto) == .adaptive)
        #expect(Load.closed.defaultSearch(sizes: .explicit([1, 2])) == .grid)
        #expect(one.defaultSearch(sizes: .auto) == .grid)
    }

    @Test func theLoadDescribesItselfInMessages() {
        #expect(Load.closed.summary == "a closed loop (no `arrivalRates`)")
        let open = Load.open(
            ArrivalPlan(rates: [200, 400], process: .uniform, latencySLOMicroseconds: 40_000, sloPercentile: 99.9))
        #expect(open.summary == "200/s,400/s uniform, p99.9 ≤ 40000 µs")
    }
}
