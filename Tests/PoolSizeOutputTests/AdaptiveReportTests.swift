import PoolSizeAnalysis
import PoolSizeModel
import Testing

@testable import PoolSizeOutput

/// An adaptive pool in a run's console summary, report and charts: the fixture run (knee 8 at
/// 2000 tasks/s) with an adaptive pool of at most 16 queues beside it.
@Suite struct AdaptiveReportTests {
    /// 8 queues from 0.1 s, a probe at 7 from 2 s, back to 8 at 2.4 s, to the end at 5 s.
    static let steps = [
        SizeStep(seconds: 0.1, size: 8, throughputPerSecond: 250),
        SizeStep(seconds: 2.0, size: 7, throughputPerSecond: 1990),
        SizeStep(seconds: 2.4, size: 8, throughputPerSecond: 1750),
        SizeStep(seconds: 5.0, size: 8, throughputPerSecond: 1960),
    ]

    static var run: RunData {
        var run = ReportFixtures.single
        for (rep, throughput) in [(1, 1940.0), (2, 1980.0)] {
            var record = ReportFixtures.record(
                16, rep: rep, combination: Combination(pool: .adaptive, qos: .default, primitive: .none))
            record.throughputPerSecond = throughput
            record.peakConcurrency = 8
            record.sizeSteps = steps
            run.records.append(record)
        }
        return run
    }

    @Test func consoleSaysWhereItSettledAgainstTheKnee() {
        let analysis = RunAnalysis(Self.run)
        let text = ConsoleSummary.render(
            analysis, spec: ReportFixtures.plan.spec, cores: ReportFixtures.info.machine!.cores,
            lowLoad: ReportFixtures.single.lowLoad!)
        #expect(text.contains("\nrecommended queue count: 8 "))
        let line =
            "\nadaptive, at most 16 queues (2 trials): settled at 8 queues, 1960 tasks/s, 0.980× the knee of"
            + " queue-pool/default/none (8 queues, 2000 tasks/s); 1 turn in 5 s\n"
        #expect(text.contains(line))
        // It runs fewer than its maximum on purpose: no "could not reach N" for it.
        #expect(!text.contains("adaptive could not reach N"))
    }

    /// A pool of at most one queue is "at most 1 queue" (it said "1 queues").
    @Test func oneQueueIsSingular() {
        var run = ReportFixtures.single
        run.records.removeAll()
        for rep in [1, 2] {
            var record = ReportFixtures.record(
                1, rep: rep, combination: Combination(pool: .adaptive, qos: .default, primitive: .none))
            record.sizeSteps = [SizeStep(seconds: 0.1, size: 1, throughputPerSecond: 250)]
            run.records.append(record)
        }
        run.recommendation = nil
        let text = ConsoleSummary.render(
            RunAnalysis(run), spec: ReportFixtures.plan.spec, cores: ReportFixtures.info.machine!.cores,
            lowLoad: ReportFixtures.single.lowLoad!)
        #expect(text.contains("\nadaptive, at most 1 queue (2 trials): settled at 1 queue, "), "\(text)")
    }

    /// Adaptive pools only: nothing to recommend, not a failure; the sentence is the answer.
    @Test func aRunOfAdaptivePoolsOnlyHasItsSentenceForAnAnswer() {
        var run = Self.run
        run.records.removeAll { $0.pool != .adaptive }
        run.recommendation = nil
        let analysis = RunAnalysis(run)
        let text = ConsoleSummary.render(
            analysis, spec: ReportFixtures.plan.spec, cores: ReportFixtures.info.machine!.cores,
            lowLoad: ReportFixtures.single.lowLoad!)
        #expect(!text.contains("no recommendation"))
        #expect(!text.contains("Partial run"))
        #expect(
            text.contains(
                "\nadaptive, at most 16 queues (2 trials): settled at 8 queues, 1960 tasks/s; 1 turn in 5 s\n"))
        let markdown = ReportMarkdown.render(
            ReportBuilder.build(
                analysis, charts: ChartSet.charts(analysis), chartsRendered: true, plotCommand: "poolsize plot x"),
            chartDirectory: "plots")
        #expect(markdown.contains("No fixed size to recommend: an adaptive pool sizes itself."))
    }

    @Test func reportHasItsSectionAndChart() throws {
        let analysis = RunAnalysis(Self.run)
        let charts = ChartSet.charts(analysis)
        let chart = try #require(charts.first { $0.name == "adaptive" })
        let markdown = ReportMarkdown.render(
            ReportBuilder.build(analysis, charts: charts, chartsRendered: true, plotCommand: "poolsize plot x"),
            chartDirectory: "plots")
        #expect(markdown.contains("## Adaptive pool"))
        #expect(
            markdown.contains("| adaptive/default/none | 16 | 2 | **8** | 1960 | 8 (queue-pool) | 0.980× | 1 | 5 s |"))
        #expect(chart.dataFiles.map(\.name) == ["adaptive.dat"])
        #expect(chart.dataFiles[0].text.hasSuffix("0.1  8  250\n2  7  1990\n2.4  8  1750\n5  8  1960\n"))
        #expect(chart.script.contains("using 1:2 axes x1y1 with steps"))
        #expect(chart.script.contains("'fixed knee 8'"))
        // The adaptive curve is not sized: the recommendation stays the fixed pool's.
        #expect(analysis.curves.first { $0.combination.pool == .adaptive }?.recommendation == nil)
        #expect(analysis.primary?.combination.pool == .queuePool)
    }
}
