import PoolSizeKit
import PoolSizeModel
import Testing

/// `--resume` refuses another `--trial-ms`: it sets the trials' length (and an open loop's window).
@Suite struct ResumeTrialLengthTests {
    static func plan(_ trialMilliseconds: Int?) -> SweepPlan {
        SweepPlan(runID: "r", spec: BusyRetryTests.spec, sizes: .explicit([1, 2]), repetitions: 1, warmupTrials: 0, cores: 2, trialMilliseconds: trialMilliseconds)
    }

    @Test func recordedInMachineJSON() {
        var info = RunInfo(workload: BusyRetryTests.spec)
        info.trialMilliseconds = 100
        #expect(Self.plan(nil).difference(from: info) == "its --trial-ms was 100, this sweep's is not given")
        #expect(Self.plan(200).difference(from: info) == "its --trial-ms was 100, this sweep's is 200")
        #expect(Self.plan(100).difference(from: info) == nil)
    }

    /// Files of earlier versions have no `trial_ms`: their command line says.
    @Test func readFromTheCommandLineOfEarlierRuns() {
        let given = RunInfo(commandLine: ["poolsize", "sweep", "--trial-ms", "100"], workload: BusyRetryTests.spec)
        #expect(Self.plan(200).difference(from: given) == "its --trial-ms was 100, this sweep's is 200")
        #expect(Self.plan(100).difference(from: given) == nil)
        let equals = RunInfo(commandLine: ["poolsize", "sweep", "--trial-ms=100"], workload: BusyRetryTests.spec)
        #expect(Self.plan(100).difference(from: equals) == nil)
        let absent = RunInfo(commandLine: ["poolsize", "sweep"], workload: BusyRetryTests.spec)
        #expect(Self.plan(100).difference(from: absent) == "its --trial-ms was not given, this sweep's is 100")
        #expect(Self.plan(nil).difference(from: absent) == nil)
        // Neither the field nor a command line: nothing to check against.
        #expect(Self.plan(100).difference(from: RunInfo(workload: BusyRetryTests.spec)) == nil)
    }
}
