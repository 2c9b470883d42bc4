import Foundation
import PoolSizeKit
import PoolSizeModel
import Testing

/// Scripted open-loop trials: every size keeps up at every rate.
final class ScriptedOpenLoopTrials: TrialMeasuring, @unchecked Sendable {
    private(set) var requests: [TrialRequest] = []

    func measure(_ request: TrialRequest, cores: Int, readRatio: Double) throws(PoolSizeError) -> (
        metrics: TrialMetrics, integrity: IntegrityReport?
    ) {
        requests.append(request)
        var metrics = TrialMetrics(
            windowSeconds: 1, throughputPerSecond: request.openLoopTrial?.ratePerSecond ?? 500,
            cpuMicrosecondsPerTask: 1000,
            waitMicrosecondsPerTask: 1000,
            utilization: 0.5, peakConcurrency: request.size, threads: request.size, otherLoad: 0)
        if let trial = request.openLoopTrial {
            metrics.loop = .open(
                OpenLoopFigures(
                    arrivalRate: ArrivalRate(perSecond: trial.ratePerSecond), offeredPerSecond: trial.ratePerSecond,
                    achievedPerSecond: trial.ratePerSecond,
                    backlogMean: 1, backlogMax: 2, backlogGrowth: 0, stable: true))
        }
        return (metrics, nil)
    }
}

extension TrialRequest {
    /// The open loop's trial; nil for a closed-loop request.
    var openLoopTrial: OpenLoopTrial? {
        guard case let .open(trial) = loop else { return nil }
        return trial
    }
}

@Suite struct OpenLoopResumeTests {
    /// 1000/min is 16.666…/s, written to trials.csv as 16.667; 27/h is 0.0075/s, whose binary
    /// value is just under the half, written as 0.007 (while 0.0075 × 1000 rounds to 8). A
    /// resumed sweep given every trial, rates as read back from the file (`%.3f`, as TrialsCSV
    /// writes them), measures nothing again.
    @Test func ratesReadBackFromTrialsCSVFindTheirPlannedTrials() throws {
        var plan = SweepPlan(
            runID: "r", spec: BusyRetryTests.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0, cores: 2,
            busyRetries: 0)
        plan.load = .open(
            ArrivalPlan(
                rates: [ArrivalRate(perSecond: 1000.0 / 60), ArrivalRate(perSecond: 27.0 / 3600)], process: .uniform))
        let first = try SweepRunner(measurer: ScriptedOpenLoopTrials(), declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: RecordingObserver())
        #expect(first.records.count == 4)
        let readBack = first.records.map { record -> TrialRecord in
            var record = record
            let rate = record.openLoop?.arrivalRate ?? 0
            record.loop.updateFigures {
                $0.arrivalRate = ArrivalRate(perSecond: Double(String(format: "%.3f", rate.perSecond))!)
            }
            return record
        }
        #expect(readBack.contains { $0.arrivalRate == 16.667 })
        #expect(readBack.contains { $0.arrivalRate == 0.007 })

        let again = ScriptedOpenLoopTrials()
        let resumed = try SweepRunner(measurer: again, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: RecordingObserver(), resume: (first.lowLoad, readBack))
        #expect(
            again.requests.isEmpty,
            "measured again: \(again.requests.map { "\($0.size) at \($0.openLoopTrial?.ratePerSecond ?? 0)/s" })")
        #expect(resumed.records.count == 4)

        // Half of them: only the other half runs.
        let half = ScriptedOpenLoopTrials()
        _ = try SweepRunner(measurer: half, declaredTaskNanoseconds: 2_000_000).run(
            plan, observer: RecordingObserver(), resume: (first.lowLoad, Array(readBack.prefix(2))))
        #expect(half.requests.count == 2)
    }
}
