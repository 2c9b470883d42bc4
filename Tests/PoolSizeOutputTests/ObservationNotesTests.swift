import Foundation
import PoolSizeModel
import PoolSizeObserve
import Testing
@testable import PoolSizeOutput

/// Issue 31, the hostile battery against `observe`: what the table and the report say about the
/// pools they do not detail, a counter that went down and an observation cut short.
struct ObservationNotesTests {
    static func report(_ observation: Observation) -> String {
        let run = ObservationRun(runID: "20261125-190000-observe-pool_target", info: nil, observation: observation)
        return ReportMarkdown.render(
            ObservationReportBuilder.build(run, charts: [], chartsRendered: true, plotCommand: "p"),
            chartDirectory: "")
    }

    /// The table lists every pool, so the idle one it does not detail is no "other pool": the
    /// note said "1 other pool" of the one pool in the table below the detailed ones.
    @Test func aPoolTheTableListsIsNoOtherPool() throws {
        let observation = try ObservationOutputTests.observation()
        let table = ObservationTable.render(observation)
        #expect(!table.contains("other pool"))
        #expect(
            table.hasSuffix(
                "\n1 pool of the table is not detailed: it used less than 1 ms of CPU per second; --format json "
                    + "lists every pool in full\n"))
        #expect(
            Self.report(observation).contains(
                "1 pool of the table is not detailed: it used less than 1 ms of CPU per second; observation.json "
                    + "and the CSV files hold every pool in full."))
    }

    /// Pools that did work past the five detailed are counted apart from the idle ones: they
    /// used more than the note said.
    @Test func poolsBeyondTheDetailedOnesAreCountedApart() throws {
        var observation = try ObservationOutputTests.observation()
        let worker = try #require(observation.pools.first { $0.name == "worker" })
        let idle = observation.pools.filter { $0.cpuCores < PoolVerdict.idleCores }
        observation.pools =
            (1...7).map { index in
                var pool = worker
                pool.name = "w\(index)"
                return pool
            } + idle
        #expect(idle.count == 1)
        #expect(
            ObservationTable.render(observation).hasSuffix(
                "\n3 pools of the table are not detailed: 1 used less than 1 ms of CPU per second, 2 did work but "
                    + "lie beyond the 5 shown in detail; --format json lists every pool in full\n"))
        observation.pools = Array(observation.pools.prefix(6))
        #expect(
            ObservationTable.render(observation).hasSuffix(
                "\n1 pool of the table is not detailed: it did work but lies beyond the 5 shown in detail; "
                    + "--format json lists every pool in full\n"))
    }

    /// A counter whose total went down is kept in the observation and named in the report.
    @Test func aCounterThatWentDownIsRecorded() throws {
        var observation = try ObservationOutputTests.observation()
        observation.settings.counter = TaskCount(command: "cat count", first: 1200, last: 15, seconds: 2)
        let json = ObservationJSON.render(observation)
        #expect(json.contains("\"went_down\" : true"), "\(json)")
        #expect(
            Self.report(observation).contains(
                "| task counter | `cat count`: 1200 at the start, 15 at the end, 2 s apart; the total went down (the "
                    + "counter restarted), so no task rate was taken from it |"))
        observation.settings.counter = TaskCount(command: "cat count", first: 15, last: 55, seconds: 2)
        #expect(ObservationJSON.render(observation).contains("\"went_down\" : false"))
        #expect(observation.settings.counter?.perSecond == 20)
        #expect(TaskCount(command: "c", first: 9, last: 3, seconds: 2).perSecond == 0, "no negative rate")
    }

    /// An interrupted observation says so in observation.json, the table (summary.txt) and the
    /// report, with the time it covers of the time asked for.
    @Test func anInterruptedObservationIsMarked() throws {
        var observation = try ObservationOutputTests.observation()
        #expect(!ObservationJSON.render(observation).contains("interrupted"))
        observation.interrupted = true
        observation.plannedSeconds = 60
        let json = ObservationJSON.render(observation)
        #expect(json.contains("\"interrupted\" : true") && json.contains("\"planned_seconds\" : 60"))
        let line =
            "the observation was cut short after 1.6 s of the 60 s asked for (Ctrl-C or SIGTERM); the figures cover "
            + "that time"
        #expect(ObservationTable.render(observation).contains("\ninterrupted: \(line)\n"))
        #expect(Self.report(observation).contains("**Interrupted:** \(line)."))
    }

    /// Issue 33, finding 3: a command observe started that ended before the duration ended the
    /// observation, as `time` does; the table and the report say when, observation.json keeps it.
    @Test func aCommandThatEndedIsMarked() throws {
        var observation = try ObservationOutputTests.observation()
        #expect(!ObservationJSON.render(observation).contains("command_ended_seconds"))
        #expect(!ObservationTable.render(observation).contains("\nended: "))
        observation.commandEndedSeconds = 1.99
        observation.plannedSeconds = 20
        #expect(ObservationJSON.render(observation).contains("\"command_ended_seconds\" : 1.99"))
        let line =
            "the command ended 1.99 s into the 20 s asked for (by the sweep that found it gone); the figures cover "
            + "its life"
        #expect(ObservationTable.render(observation).contains("\nended: \(line)\n"))
        #expect(Self.report(observation).contains("**Ended:** \(line)."))
    }

    /// Issue 33, finding 4: a grouping rule that placed no thread is named in the table, the
    /// report and observation.json.
    @Test func aGroupRuleThatPlacedNoThreadIsNamed() throws {
        var observation = try ObservationOutputTests.observation()
        #expect(!ObservationTable.render(observation).contains("\nwarning: "))
        observation.unmatchedGroupRules = [try GroupRule(parsing: "title:^nginx: worker=workers")]
        let pid = observation.target.pid
        #expect(
            ObservationTable.render(observation).contains(
                "\nwarning: --group 'title:^nginx: worker=workers' matched no process title of the target (or only "
                    + "threads an earlier --group took), so pool 'workers' is empty; compare the pattern with the "
                    + "process titles (ps -o args -p \(pid))\n"))
        let report = Self.report(observation)
        #expect(report.contains("**Warning:** ") && report.contains("so pool 'workers' is empty"), "\(report)")
        #expect(ObservationJSON.render(observation).contains("\"unmatched_group_rules\""))
    }
}
