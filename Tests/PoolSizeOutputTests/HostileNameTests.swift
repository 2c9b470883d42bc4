import Foundation
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// A workload name is data wherever it is written. Each payload tries to run a command through
/// gnuplot (a backquote inside double quotes, a newline that ends a comment, a quote that ends a
/// string) or to inject markup into the report; each names a marker file that must never appear.
@Suite struct HostileNameTests {
    static func payloads(marker: String) -> [String] {
        [
            "x`touch \(marker)`x",
            "a\nsystem \"touch \(marker)\"",
            "q'\nsystem 'touch \(marker)'\n'",
            "\"; system \"touch \(marker)\"; \"",
            "@macro `touch \(marker)` <script>alert(1)</script> **bold** [link](javascript:x) |cell|",
        ]
    }

    /// The fixture run with every place a workload name is read from replaced by `name`.
    static func run(named name: String) -> RunData {
        var run = ReportFixtures.single
        run.records = run.records.map {
            var r = $0; r.workload = name; return r
        }
        run.info?.plan?.spec.name = name
        if var best = run.recommendation?.best {
            best.workload = name
            best.reason = "reason naming \(name)"
            run.recommendation = RecommendationSet(best: best, combinations: [best], verdict: "")
        }
        return run
    }

    @Test func gnuplotLiteralsCannotBeEvaluated() {
        #expect(GnuplotScript.quote("it's") == "'it''s'")
        #expect(GnuplotScript.quote("a\nb\tc") == "'a b c'")
        #expect(GnuplotScript.quote("x`id`x") == "'x\u{02CB}id\u{02CB}x'")
        #expect(GnuplotScript.comment("a\nsystem \"id\"") == "# a system \"id\"")
        #expect(GnuplotScript.title("T", "h'\n`") == "set title 'T'.\"\\n\".'h'' \u{02CB}' noenhanced")
        #expect(GnuplotScript.label("a\"b\nc") == "\"a'b c\"")
    }

    @Test func everyScriptKeepsUserTextInSingleQuotesOnOneLine() {
        for name in Self.payloads(marker: "/tmp/never") {
            for chart in ChartSet.charts(RunAnalysis(Self.run(named: name))) {
                for line in chart.script.split(separator: "\n") where line.contains("touch") {
                    // The only lines that hold the payload: a comment, or a command whose payload
                    // sits inside one single-quoted literal.
                    #expect(line.hasPrefix("#") || line.contains("'"), "\(chart.name): \(line)")
                    #expect(!line.contains("`"), "\(chart.name): \(line)")
                }
                #expect(!chart.script.contains("\nsystem"), "\(chart.name)")
                for data in chart.dataFiles { #expect(!data.text.contains("\nsystem"), "\(data.name)") }
            }
        }
    }

    /// Renders every chart of a run named by each payload with the real gnuplot: the charts still
    /// render and no payload ran. gnuplot missing fails the test.
    @Test
    func gnuplotRendersHostileNamesWithoutRunningThem() throws {
        try #require(GnuplotRenderer().executable != nil, "needs gnuplot: scripts/install-gnuplot.sh")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-hostile-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = dir.appendingPathComponent("pwned").path
        for (index, name) in Self.payloads(marker: marker).enumerated() {
            let out = dir.appendingPathComponent("\(index)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            for chart in ChartSet.charts(RunAnalysis(Self.run(named: name))) {
                for data in chart.dataFiles {
                    try data.text.write(to: out.appendingPathComponent(data.name), atomically: true, encoding: .utf8)
                }
                let script = out.appendingPathComponent(chart.scriptFile)
                try chart.script.write(to: script, atomically: true, encoding: .utf8)
                try GnuplotRenderer().render(script: script)
                let size =
                    try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(chart.pngFile).path)[
                        .size] as? Int ?? 0
                #expect(size > 1000, "payload \(index): \(chart.pngFile) is \(size) bytes")
            }
            #expect(!FileManager.default.fileExists(atPath: marker), "payload \(index) ran: \(name)")
        }
    }

    @Test func markdownShowsNamesAsText() {
        let name = "<script>alert(1)</script> **b** `c` [l](javascript:x) a|b\nc"
        let markdown = ReportTests.markdown(Self.run(named: name))
        #expect(!markdown.contains("<script>"))
        #expect(
            markdown.hasPrefix(
                "# How many queues? \\<script\\>alert(1)\\</script\\> \\*\\*b\\*\\* \\`c\\` \\[l\\](javascript:x) a|b c workload, 2 cores, 2026-11-22\n"
            ))
        #expect(
            markdown.contains(
                "for the \\<script\\>alert(1)\\</script\\> \\*\\*b\\*\\* \\`c\\` \\[l\\](javascript:x) a|b c workload on 2 cores"
            ))
    }

    @Test func markdownCodeSpansOutlastBackquotesInside() {
        #expect(ReportMarkdown.inline(ReportInline.code("a`b")) == "``a`b``")
        #expect(ReportMarkdown.inline(ReportInline.code("`x")) == "`` `x ``")
        #expect(ReportMarkdown.row([ReportInline.code("a|b"), "**1**"]) == "| `a\\|b` | **1** |")
    }

    @Test func htmlShowsNamesAsText() {
        let analysis = RunAnalysis(Self.run(named: "<script>alert(1)</script> **b**"))
        let document = ReportBuilder.build(analysis, charts: [], chartsRendered: true, plotCommand: "poolsize plot x")
        let html = ReportHTML.render(document, svg: { _ in nil })
        #expect(!html.contains("<script>"))
        #expect(
            html.contains(
                "<title>How many queues? &lt;script&gt;alert(1)&lt;/script&gt; **b** workload, 2 cores, 2026-11-22</title>"
            ))
        #expect(html.contains("for the &lt;script&gt;alert(1)&lt;/script&gt; **b** workload"))
    }

    @Test func literalTextRoundTripsThroughTheInlineMarkup() {
        let text = "a\\b*c`d **e**"
        #expect(ReportInline.tokens(ReportInline.literal(text)) == [.text(text)])
        #expect(
            ReportInline.tokens("x **" + ReportInline.literal("*") + "** " + ReportInline.code("`")) == [
                .text("x "), .strong, .text("*"), .strong, .text(" "), .code("`"),
            ])
    }
}
