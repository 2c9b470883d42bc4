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

    @Test func unrenderedChartsSayHowToRenderThem() {
        let text = Self.markdown(ReportFixtures.single, rendered: false)
        #expect(
            text.contains(
                "Install gnuplot (`apt-get install gnuplot-nox`) and run `poolsize plot results/20261122-051503-io`"))
        #expect(text.contains("![Throughput vs pool size](../../plots/20261122-051503-io/throughput.svg)"))
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
        #expect(text.contains("warning: Invalid trials left out: 14 trial(s)"))
        #expect(!text.contains("no trials were measured"))
    }
}
