import Foundation
import PoolSizeModel
import PoolSizeObserve
import Testing
@testable import PoolSizeOutput

/// An observation's run directory: the per-pool CSV, the chart of shares over time, the report
/// and the OpenMetrics export of the recording of a real process (Tests/Fixtures/observe/
/// c-pool.json, whose figures PoolSizeObserveTests checks by hand), as golden text; the files
/// written and read back; names from the target as data in every file.
@Suite struct ObservationRunTests {
    static func run() throws -> ObservationRun {
        let info = RunInfo(
            .observation(runID: "20261123-220000-observe-pool_target", seed: 7), poolsizeVersion: "0.1.0",
            commandLine: [
                "poolsize", "observe", "--duration", "1.6s", "--rate", "20", "--seed", "7", "--out", "results/c-pool",
                "--", "pool_target", "--workers", "2",
            ])
        return ObservationRun(runID: info.runID, info: info, observation: try ObservationOutputTests.observation())
    }

    /// `run()` as `observe` writes it, with the machine it ran on (every machine.json holds it;
    /// `run()` leaves it out so the golden report holds no machine).
    static func savedRun() throws -> ObservationRun {
        var run = try run()
        run.info?.machine = ReportFixtures.info.machine
        return run
    }

    @Test func thePoolsCSVHoldsItsSlices() throws {
        let run = try Self.run()
        let worker = try #require(run.observation.pools.first { $0.name == "worker" })
        let text = PoolTimelineCSV.serialize(worker)
        try GoldenFile.check(text, "observe/pools/worker.csv")
        let table = try CSVTable(text: text, path: "worker.csv")
        #expect(table.header == PoolTimelineCSV.columns)
        #expect(table.rows.count == 2, "1.6 s: two slices")
        // Slice 0 of the worker pool, worked out from the raw texts (PoolSizeObserveTests.TimelineTests):
        // epoll_wait on a set the recording does not hold is ambiguous, not idle.
        #expect(
            table.rows[0] == [
                "worker", "0.000", "1.000", "2.000", "0.095721", "0.047860", "0.001787", "0.059241", "0.891112",
                "0.000000", "36",
            ])
        for row in table.rows {
            let sum = row[5...9].compactMap(Double.init).reduce(0, +)
            #expect(abs(sum - 1) < 1e-5, "the shares of a slice sum to 1: \(row)")
        }
    }

    @Test func theSharesChartStacksFiveSeries() throws {
        let run = try Self.run()
        let charts = SharesChart.charts(run, pools: ObservationTable.detailed(run.observation))
        #expect(
            charts.map(\.name) == ["shares-worker", "shares-feeder", "shares-device"],
            "the pools that did work, most CPU first")
        let worker = try #require(charts.first)
        try GoldenFile.check(worker.script, "observe/shares-worker.gp")
        try GoldenFile.check(worker.dataFiles[0].text, "observe/shares-worker.dat")
        #expect(
            worker.script.contains("using 1:($2+$3+$4+$5):($2+$3+$4+$5+$6) with filledcurves"),
            "idle on top of the other four")
    }

    @Test func theReport() throws {
        let run = try Self.run()
        let charts = SharesChart.charts(run, pools: ObservationTable.detailed(run.observation))
        let document = ObservationReportBuilder.build(
            run, charts: charts, chartsRendered: true, plotCommand: "poolsize plot results/c-pool")
        let markdown = ReportMarkdown.render(document, chartDirectory: "../../plots/c-pool/")
        try GoldenFile.check(markdown, "observe/report.md")
        #expect(markdown.contains("| `worker` | 2 | 16.2–100% |"))
        #expect(
            markdown.contains(
                "![Where the threads of pool worker spent their time](../../plots/c-pool/shares-worker.svg)"))
        #expect(markdown.contains("**Verdict:** about right for this load: 2 threads"))
    }

    /// A limit's message mentions a setting as the library names it; the report quotes it in
    /// the writer's wording, which the command line gives as its flags (`--duration`).
    @Test func theReportQuotesTheLimitsInTheWordingItIsGiven() throws {
        var run = try Self.run()
        run.observation.limits = [ObservationLimit(kind: .targetExited, pid: 7, afterSeconds: 1)]
        func report(_ wording: @escaping (String) -> String) -> String {
            let document = ObservationReportBuilder.build(
                run, charts: [], chartsRendered: true, plotCommand: "p", wording: wording)
            return ReportMarkdown.render(document, chartDirectory: "")
        }
        let flags = report { $0.replacingOccurrences(of: "`observeDuration`", with: "--duration") }
        #expect(flags.contains("observe a process that outlives --duration, or shorten it"))
        #expect(!report { $0 }.contains("outlives --duration"), "the library names the setting, not the flag")
    }

    @Test func openMetrics() throws {
        let text = OpenMetricsExport.serialize(try Self.run())
        try GoldenFile.check(text, "observe/c-pool.openmetrics")
        #expect(text.hasSuffix("# EOF\n"))
        #expect(
            text.contains(
                "poolsize_observed_threads{target=\"pool_target\",pid=\"8277\",host=\"unknown\",pool=\"worker\"} 2\n"))
        #expect(
            text.contains(
                "poolsize_observed_verdict{target=\"pool_target\",pid=\"8277\",host=\"unknown\","
                    + "pool=\"worker\",verdict=\"aboutRight\"} "
                    + "1\n"
            ))
        let wait = text.split(separator: "\n").first {
            $0.hasPrefix("poolsize_observed_wait_cpu_ratio{") && $0.contains("pool=\"worker\",bound=\"low\"")
        }
        #expect(
            wait.flatMap { Double($0.split(separator: " ").last!) }.map { abs($0 - 2.198053) < 1e-5 } == true,
            "W/C as worked out by hand")
    }

    /// A sweep's machine.json (its plan) beside observation.json is not this observation's.
    @Test func aSweepsMachineJSONIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = RunDirectory(root)
        try directory.save(try Self.run())
        try JSONExport.serialize(ReportFixtures.info).write(
            to: directory.url(.machine), atomically: true, encoding: .utf8)
        #expect(
            throws: PoolSizeError.invalidInput(
                path: directory.url(.machine).path,
                message:
                    "it records a sweep's plan, not an observation; pass the observation's run directory, or delete the file"
            )
        ) {
            try directory.loadObservation()
        }
    }

    /// What `observe --out` writes reads back as written, and `report` rewrites the derived files
    /// from observation.json alone.
    @Test func theRunDirectoryReadsBackAsWritten() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try Self.savedRun()
        let directory = RunDirectory(root.appendingPathComponent("results/c-pool"))
        try directory.prepareForObservation(replace: false)
        try directory.save(run)
        #expect(directory.holdsObservation)
        #expect(try directory.loadObservation() == run, "observation.json and machine.json hold the whole run")
        #expect(!(try String(contentsOf: directory.url(.machine), encoding: .utf8)).contains("\"plan\""))
        let renderer = FakeRenderer()
        let writer = ReportWriter(
            runDirectory: directory.url, plotsDirectory: root.appendingPathComponent("plots/c-pool"),
            renderer: renderer, currentDirectory: root.path)
        let outcome = try writer.writeObservationReport(run)
        #expect(renderer.scripts == ["shares-worker.gp", "shares-feeder.gp", "shares-device.gp"])
        #expect(outcome.charts.allRendered)
        for stem in ["worker", "device", "feeder", "pool_target"] {
            #expect(FileManager.default.fileExists(atPath: directory.poolCSV(stem: stem).path), "pools/\(stem).csv")
        }
        #expect(
            try String(contentsOf: outcome.markdown, encoding: .utf8).contains("(../../plots/c-pool/shares-worker.svg)")
        )
        #expect(
            try String(contentsOf: directory.url(.summaryText), encoding: .utf8)
                == ObservationTable.render(run.observation))
        #expect(
            throws: PoolSizeError.runDirectoryTaken(
                path: directory.url.path,
                reason:
                    "an observation's run directory is already there (it has observation.json); pass `replaceRun` to "
                    + "replace it, or choose another `runDirectory`"
            )
        ) {
            try directory.prepareForObservation(replace: false)
        }
        try directory.prepareForObservation(replace: true)
    }

    /// The figures issue 31 added (the program, a lock's parallelism, N with the cores, λ·D and
    /// the resolved W/C and N) read back from observation.json as written.
    @Test func theProgramAndTheResolvedFiguresReadBack() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let recording = try ProcRecording.decode(
            Data(contentsOf: ReportFixtures.fixture("observe/cpython-threads.json")))
        let observation = ObservationEstimator.estimate(
            recording.record, settings: EstimatorSettings(throughputPerSecond: 180, latencySeconds: 0.04))
        let pool = try #require(observation.pools.first)
        #expect(pool.program != nil && pool.parallelism == 1 && pool.sizeWithCores != nil)
        #expect(pool.perTask?.resolvedWaitToCPU != nil && pool.perTask?.resolvedSize != nil)
        let run = ObservationRun(runID: "20261125-190000-observe-python3", info: nil, observation: observation)
        let directory = RunDirectory(root.appendingPathComponent("results/python"))
        try directory.prepareForObservation(replace: false)
        try directory.save(run)
        #expect(try directory.loadObservation().observation == observation)
    }

    /// The process's CPU from its stat and what of it no sweep saw (issue 31's threads that live
    /// between samples) print on their own line and read back from observation.json.
    @Test func theProcessCPUPrintsAndReadsBack() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-observation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        var observation = try ObservationOutputTests.observation()
        observation.processCPUCores = 0.4
        observation.unseenThreadCPUCores = 0.3
        #expect(
            ObservationTable.render(observation).contains(
                "\nprocess: 0.400 cores of CPU (its stat, ended threads included), 0.300 cores in threads that lived "
                    + "between samples\n"))
        let run = ObservationRun(runID: "20261125-190000-observe-c-pool", info: nil, observation: observation)
        let directory = RunDirectory(root.appendingPathComponent("results/c-pool"))
        try directory.prepareForObservation(replace: false)
        try directory.save(run)
        let read = try directory.loadObservation().observation
        #expect(read.processCPUCores == 0.4 && read.unseenThreadCPUCores == 0.3)
    }

    /// A thread names itself anything (prctl PR_SET_NAME): a pool named like a path, a line
    /// break, markup or a gnuplot command stays data in the file names, the CSV, the chart and
    /// the report.
    @Test func poolNamesAreData() throws {
        var run = try Self.run()
        let hostile = "../x\n'`touch p`'*y* <b>|"
        run.observation.pools[0].name = hostile
        run.observation.pools[1].name = "a b"
        run.observation.pools[2].name = "a_b"
        let stems = run.fileStems
        #expect(stems[hostile] == "_.._x___touch_p___y___b__")
        #expect(stems["a b"] == "a_b" && stems["a_b"] == "a_b-2", "two names that clean to one stem stay apart")
        #expect(stems.values.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") })
        let csv = PoolTimelineCSV.serialize(run.observation.pools[0])
        #expect(
            try CSVTable(text: csv, path: "x.csv").strings(0).allSatisfy { $0 == hostile },
            "quoted, it reads back whole")
        let chart = try #require(SharesChart.charts(run, pools: [run.observation.pools[0]]).first)
        #expect(chart.name == "shares-_.._x___touch_p___y___b__")
        #expect(!chart.script.contains("`"), "no backquote reaches a script")
        #expect(
            chart.script.contains(
                "set title 'Where the threads of pool ../x ''ˋtouch pˋ''*y* <b>| spent their time'"))
        let document = ObservationReportBuilder.build(run, charts: [chart], chartsRendered: true, plotCommand: "p")
        let markdown = ReportMarkdown.render(document, chartDirectory: "")
        #expect(
            markdown.contains("### Where the threads of pool ../x '\\`touch p\\`'\\*y\\* \\<b\\>|"),
            "the caption as text")
        #expect(markdown.contains("## Pool ``../x '`touch p`'*y* <b>|``"), "the heading as a code span")
        let html = ReportHTML.render(document) { _ in nil }
        #expect(!html.contains("<b>") && html.contains("&lt;b&gt;"))
    }
}
