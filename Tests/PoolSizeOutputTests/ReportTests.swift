import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

@Suite struct ReportTests {
    static func markdown(_ run: RunData, rendered: Bool = true) -> String {
        let analysis = RunAnalysis(run)
        let document = ReportBuilder.build(
            analysis, charts: ChartSet.charts(analysis), chartsRendered: rendered,
            plotCommand: "poolsize plot results/\(run.runID)")
        return ReportMarkdown.render(document, chartDirectory: "../../plots/\(run.runID)/")
    }

    @Test(arguments: ["single", "axes"])
    func goldenMarkdown(fixture: String) throws {
        try GoldenFile.check(
            Self.markdown(fixture == "single" ? ReportFixtures.single : ReportFixtures.axes), "\(fixture)/report.md")
    }

    @Test func recommendationComesFirst() {
        let text = Self.markdown(ReportFixtures.single)
        let order = [
            "## Recommendation", "**8 queues**", "| pool | QoS |", "## Machine", "## Charts", "## Measurements",
            "## Fit parameters", "## Caveats",
        ]
        let positions = order.map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    /// The report's command line as it can be typed again: an --exec command keeps its quotes
    /// (it was the words joined with spaces, `--exec sh -c sleep 1; exit 3`).
    @Test func theCommandLineKeepsItsQuotes() {
        var run = ReportFixtures.single
        run.info?.commandLine = [
            "/usr/local/bin/poolsize", "sweep", "--exec", "sh -c 'sleep 1; exit 3'", "--sizes", "1,2",
        ]
        let text = Self.markdown(run)
        let line = text.split(separator: "\n").first { $0.contains("| command |") }
        #expect(
            line?.contains(#"`poolsize sweep --exec 'sh -c '\''sleep 1; exit 3'\''' --sizes 1,2`"#) == true,
            "\(line ?? "")")
    }

    @Test func unrenderedChartsSayHowToRenderThem() {
        let text = Self.markdown(ReportFixtures.single, rendered: false)
        #expect(
            text.contains(
                "Install gnuplot (`apt-get install --no-install-recommends gnuplot-nox`) and run `poolsize plot results/20261122-051503-io`"
            ))
        #expect(text.contains("![Throughput vs pool size](../../plots/20261122-051503-io/throughput.svg)"))
    }

    /// A spec with phases: the formula's W/C is the first stretch's, the knee sizes the mix; the
    /// caveat says so instead of "formula and measurement disagree".
    @Test func phasesAreNamedAsTheReasonFormulaAndKneeDiffer() throws {
        var run = ReportFixtures.single
        run.info?.plan?.spec.phases = [
            WorkloadPhase(startMilliseconds: 1000, cpuMicroseconds: 1000, waitMicroseconds: 9000)
        ]
        let caveats = ReportCaveats.caveats(RunAnalysis(run))
        let caveat = try #require(caveats.first { $0.hasPrefix("**The workload changes during each trial**") })
        #expect(
            caveat.hasPrefix(
                "**The workload changes during each trial** (W/C 3.00 at the start, then 9.00 from 1 s): "),
            "\(caveat)")
        #expect(!caveats.contains { $0.hasPrefix("**Formula and measurement disagree**") })
        #expect(
            !ReportCaveats.caveats(RunAnalysis(ReportFixtures.single)).contains {
                $0.contains("changes during each trial")
            })
    }

    @Test func caveatsTheDataShows() {
        let caveats = ReportCaveats.caveats(RunAnalysis(ReportFixtures.axes))
        #expect(caveats.contains { $0.hasPrefix("**global-queue could not reach N**: at N = 4, 8 ") })
        #expect(
            caveats.contains {
                $0.hasPrefix(
                    "**user-initiated did not get its nice value**: libdispatch asks for nice -2, but its workers ran at 0 (a negative nice needs privileges)"
                )
            })
        let single = ReportCaveats.caveats(RunAnalysis(ReportFixtures.single))
        #expect(
            single.contains {
                $0.hasPrefix(
                    "**High variation between repetitions** (coefficient of variation above 10%): N = 12 (21.2%).")
            })
        #expect(!single.contains { $0.contains("could not reach N") })
    }

    @Test func htmlIsOneSelfContainedFile() {
        let analysis = RunAnalysis(ReportFixtures.single)
        let document = ReportBuilder.build(
            analysis, charts: ChartSet.charts(analysis), chartsRendered: true, plotCommand: "poolsize plot x")
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>chart</text></svg>"
        let html = ReportHTML.render(document) { $0 == "throughput" ? svg : nil }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("src=\"data:image/svg+xml;base64,\(Data(svg.utf8).base64EncodedString())\""))
        #expect(html.contains("<strong>8 queues</strong>"))
        #expect(html.contains("Chart not rendered"))  // latency and the others had no SVG
        #expect(!html.contains("src=\"http"))
        #expect(!html.contains("**"))
    }

    @Test func inlineMarkupBecomesTags() {
        #expect(ReportHTML.inline("**8** `a<b`") == "<strong>8</strong> <code>a&lt;b</code>")
    }
}

@Suite struct ConsoleSummaryTests {
    /// Trials were measured but gave no recommendation: the console says which, not "no trials".
    @Test func noRecommendationSaysWhy() {
        var run = ReportFixtures.single
        run.recommendation = nil
        run.records = run.records.map {
            var r = $0; r.invalidReason = "above the ceiling"; return r
        }
        let text = ConsoleSummary.render(
            RunAnalysis(run), spec: WorkloadSpec(name: "io", cpuMicroseconds: 1000, waitMicroseconds: 3000),
            cores: CoreCount(online: 2, affinity: 2, cgroupQuota: nil),
            lowLoad: LowLoadEstimate(
                tasks: 50, seconds: 0.2, cpuMicrosecondsPerTask: 1000, waitMicrosecondsPerTask: 3000, ratio: nil))
        #expect(text.contains("no recommendation: none of the 14 trials measured is valid (see the warnings)"))
        #expect(
            text.contains(
                "warning: Invalid trials left out: 14 trial(s) gave figures that are not the pool's (each reason says why: "
            ))
        #expect(!text.contains("no trials were measured"))
    }
}

/// What the report says of trials that failed or could not be offered their rate: since failed
/// tasks count in no figure (issue 24), the caveats no longer say they inflate throughput, and
/// neither advise longer trials for them nor call a finished run without a recommendation
/// partial.
@Suite struct FailedTrialCaveatTests {
    /// One trial losing 400 tasks (invalid), the others one each (allowed, and summed).
    static func failing(_ run: RunData) -> RunData {
        var run = run
        run.recommendation = nil
        run.records = run.records.enumerated().map { index, record in
            var r = record
            r.errors = index == 0 ? 400 : 1
            r.invalidReason = index == 0 ? TrialValidity.problem(r, cores: 2) : nil
            return r
        }
        return run
    }

    /// A command whose C is mostly its program starting says so, in the report and on the
    /// console (every caveat is printed as a warning), and names what to use instead.
    @Test func aCommandThatIsMostlyItsStartSaysSo() throws {
        var run = ReportFixtures.single
        let lowLoad = try #require(run.lowLoad)
        run.lowLoad?.processStart = ProcessStart(
            program: "/usr/bin/psql", runs: 5, cpuMicroseconds: 0.75 * lowLoad.cpuMicrosecondsPerTask,
            wallMicroseconds: lowLoad.cpuMicrosecondsPerTask)
        let caveats = ReportCaveats.caveats(RunAnalysis(run))
        let start = try #require(caveats.first { $0.hasPrefix("**Each task is mostly its process starting**") })
        #expect(start.contains("starting psql alone"), "\(start)")
        #expect(start.contains("(75% of C;"), "\(start)")
        #expect(start.contains("`--http` for a service"), "\(start)")
        #expect(start.contains("through `Sweep`"), "\(start)")
        #expect(start.contains("pgbench, wrk"), "\(start)")
        // Under half of C: no caveat that it is mostly start-up; psql's own start-up, which the
        // loader's cannot show, is named with the flag that measures it.
        run.lowLoad?.processStart?.cpuMicroseconds = 0.4 * lowLoad.cpuMicrosecondsPerTask
        let under = ReportCaveats.caveats(RunAnalysis(run))
        #expect(!under.contains { $0.contains("mostly its process starting") })
        let client = try #require(under.first { $0.hasPrefix("**Each task starts psql afresh**") })
        #expect(client.contains("Measure it with `--exec-baseline`"), "\(client)")
        // A baseline measured at 75%: the caveat names it instead of the loader.
        run.lowLoad?.processStart?.cpuMicroseconds = 0.75 * lowLoad.cpuMicrosecondsPerTask
        run.lowLoad?.processStart?.baseline = "psql -c 'SELECT 1'"
        let measured = ReportCaveats.caveats(RunAnalysis(run))
        let baseline = try #require(measured.first { $0.hasPrefix("**Each task is mostly its process starting**") })
        #expect(
            baseline.contains("and the baseline psql -c 'SELECT 1', the program started with nothing to do, costs"),
            "\(baseline)")
        #expect(baseline.contains("(75% of C)."), "\(baseline)")
        #expect(!measured.contains { $0.contains("afresh") })
        // A baseline costlier than a whole task (312× C, as reported) is no start-up: no share
        // of C is said from it, and the caveat says what the baseline must be.
        run.lowLoad?.processStart?.cpuMicroseconds = 311.87 * lowLoad.cpuMicrosecondsPerTask
        let costly = ReportCaveats.caveats(RunAnalysis(run))
        #expect(!costly.contains { $0.contains("% of C") })
        let more = try #require(costly.first { $0.hasPrefix("**The baseline costs more than a task**") })
        #expect(more.contains("so it cannot be the task's start-up: it does work the task does not."), "\(more)")
    }

    @Test func failuresAreSaidToCountInNoFigure() throws {
        let run = Self.failing(ReportFixtures.single)
        #expect(run.records.filter { $0.invalidReason != nil }.count == 1)
        let caveats = ReportCaveats.caveats(RunAnalysis(run))
        let failed = try #require(caveats.first { $0.hasPrefix("**Failed tasks**") })
        #expect(
            failed.hasSuffix(
                "; they count in no throughput, CPU or wait figure, and a trial that lost more than 1% of its tasks is left out as invalid."
            ), "\(failed)")
        #expect(!caveats.joined().contains("counted in the throughput"))
        let invalid = try #require(caveats.first { $0.hasPrefix("**Invalid trials left out**") })
        #expect(invalid.contains("tasks failed (") && !invalid.contains("Lengthen the trials"), "\(invalid)")
        #expect(!caveats.contains { $0.hasPrefix("**Partial run**") }, "the sweep ran to its end: \(caveats)")
    }

    @Test func aRateTheDispatcherCouldNotOfferIsNotAdvisedLongerTrials() throws {
        var run = ReportFixtures.single
        run.recommendation = nil
        run.records = run.records.map { record in
            var r = record
            r.loop = .open(
                OpenLoopFigures(
                    arrivalRate: ArrivalRate(perSecond: 200_000), offeredPerSecond: 0, achievedPerSecond: 0,
                    backlogMean: 0,
                    backlogMax: 0, backlogGrowth: 0, stable: true))
            r.invalidReason = TrialValidity.problem(r, cores: 2)
            return r
        }
        #expect(
            run.records.allSatisfy {
                $0.invalidReason?.hasPrefix("the dispatcher offered 0/s of the 200000/s asked") == true
            })
        let caveats = ReportCaveats.caveats(RunAnalysis(run))
        let invalid = try #require(caveats.first { $0.hasPrefix("**Invalid trials left out**") })
        #expect(!invalid.contains("Lengthen the trials"), "\(invalid)")
        #expect(!caveats.contains { $0.hasPrefix("**Partial run**") }, "\(caveats)")
    }

    /// Trials invalid for a figure past the machine's limits keep the advice.
    @Test func tooFewTasksKeepTheAdvice() throws {
        var run = ReportFixtures.single
        run.records = run.records.map {
            var r = $0; r.invalidReason = "only 3 tasks in a 10 ms window (at least 10 are needed)"; return r
        }
        let invalid = try #require(
            ReportCaveats.caveats(RunAnalysis(run)).first { $0.hasPrefix("**Invalid trials left out**") })
        #expect(invalid.hasSuffix(" Lengthen the trials (`--trial-ms`) or measure fewer sizes at once."))
    }
}
