import Foundation
import Testing

@testable import PoolSizeOutput

/// The one renderer of charts: a small `PlotSpec` as golden text, and every string a spec holds
/// (caption, headline, labels, marker texts, legend titles, comments, data cells) kept data when
/// it carries quotes, backslashes, newlines, `@`, `$` or backquotes.
@Suite struct PlotSpecRenderTests {
    /// Two blocks of a data file, a log axis, a second axis, each kind of marker, a function with
    /// its variables, and a series from each source.
    static func spec(_ text: String = "") -> PlotSpec {
        let data = PlotData(
            name: "demo.dat", header: ["demo data\(text)", "size  value  label"],
            blocks: [
                PlotData.Block(
                    comments: ["index 0: first\(text)"],
                    rows: [[.integer(1), .number(0.5), .text("one\(text)")], [.integer(2), .missing, .text("two")]]),
                PlotData.Block(comments: ["index 1: second"], rows: [[.integer(4), .number(1234.5678), .text("x")]]),
            ])
        return PlotSpec(
            name: "demo", caption: "Demo chart\(text)", headline: "io workload\(text)", note: "How to read it.",
            dataNote: "Data: demo.dat (two blocks)\(text).",
            settings: [
                .label(.x, "pool size\(text)"), .label(.y, "latency (ms)\(text)"), .label(.y2, "rate"), .logScale(.y),
                .grid(.both), .range(.x, low: 0, high: 4.2), .range(.y2, low: 0, high: nil), .secondAxisTics,
                .ticStep(.y, 2), .headroom(top: 0.08),
                .verticalMarker(tag: 1, x: 2, text: "recommended 2\(text)", color: "#d62728", dash: 3),
                .horizontalMarker(tag: 10, y: 100, text: "line\(text)", color: "#2ca02c", dash: 2, width: 2),
                .pointMarker(tag: 3, x: 2, y: 0.5, text: "point\(text)", color: "#d62728"), .spacer,
                .remark("a model\(text)"), .variable("C", 1000, note: "µs on CPU\(text)"),
                .function("model", parameter: "n", body: "C * n"),
            ],
            series: [
                PlotSeries(
                    .file(data.name), block: 0, columns: [.column(1), .column(2)], axis: .y,
                    style: PlotStyle(
                        .linespoints, [.width(2), .dash(2), .pointType(7), .pointSize(1.5)], color: "#1f77b4"),
                    title: .literal("first\(text)")),
                PlotSeries(
                    .sameFile, block: 1, columns: [.column(0), .column(2), .ticLabel(3)],
                    style: PlotStyle(.boxes, color: "#ff7f0e"), title: .enhanced("second\(text)")),
                PlotSeries(
                    .sameFile, columns: [.column(1), .sum([]), .sum([2, 3])], style: PlotStyle(.filledcurves),
                    title: .hidden),
                PlotSeries(
                    .sameFile, columns: [.column(0), .column(2), .formatted("%.1f%%", 2)],
                    style: PlotStyle(.labels, [.offset(0, 0.8)]), title: .hidden),
                PlotSeries(
                    .function("model", from: 1, to: 4.2), style: PlotStyle(.lines, [.width(2)], color: "#9467bd"),
                    title: .enhanced("model")),
                PlotSeries(.identity, style: PlotStyle(.lines, [.dash(2)]), title: .enhanced("y = x")),
                PlotSeries(.constant(40), style: PlotStyle(.lines, [.dash(4)]), title: .enhanced("objective")),
            ],
            data: [data])
    }

    @Test func goldenScriptAndData() throws {
        let chart = GnuplotScript.render(Self.spec())
        #expect(chart.name == "demo" && chart.caption == "Demo chart" && chart.note == "How to read it.")
        #expect(chart.dataFiles.map(\.name) == ["demo.dat"])
        try GoldenFile.check(chart.script, "plotspec/demo.gp")
        try GoldenFile.check(chart.dataFiles[0].text, "plotspec/demo.dat")
    }

    /// Legend entries count only titled series; past six the canvas grows and past four the
    /// legend takes two columns.
    @Test func manyLegendEntriesGetATallerCanvasAndTwoColumns() {
        var spec = Self.spec()
        #expect(spec.legendEntries == 5)
        #expect(GnuplotScript.script(spec).contains("set terminal svg size 800,500 "))
        #expect(
            GnuplotScript.script(spec).contains("\nset key below horizontal maxcols 2 font ',10' samplen 2 height 1\n"))
        spec.series += Array(
            repeating: PlotSeries(.identity, style: PlotStyle(.lines), title: .enhanced("x")), count: 2)
        #expect(GnuplotScript.script(spec).contains("set terminal svg size 800,600 "))
        #expect(GnuplotScript.script(spec).contains("set terminal pngcairo size 800,600 "))
        spec.series = Array(spec.series.prefix(1))
        #expect(GnuplotScript.script(spec).contains("\nset key below height 1\n"))
    }

    static let hostile = "q' \"d\" \\b\n@m $x `id` 'tail"

    /// Each hostile string lands in one single-quoted literal (quotes doubled, line breaks and
    /// control characters as spaces, backquotes as U+02CB) or one comment line, never anywhere
    /// else: the script has as many lines as the same spec with harmless text.
    @Test func hostileStringsInEveryFieldStayData() {
        let plain = GnuplotScript.render(Self.spec())
        let chart = GnuplotScript.render(Self.spec(Self.hostile))
        let escaped = "q'' \"d\" \\b @m $x \u{02CB}id\u{02CB} ''tail"
        let commented = "q' \"d\" \\b @m $x \u{02CB}id\u{02CB} 'tail"
        #expect(
            chart.script.split(separator: "\n", omittingEmptySubsequences: false).count
                == plain.script.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(!chart.script.contains("`"))
        let lines = [
            "# poolsize chart: Demo chart\(commented) (io workload\(commented))",
            "# Data: demo.dat (two blocks)\(commented).",
            "set title 'Demo chart\(escaped)'.\"\\n\".'io workload\(escaped)' noenhanced",
            "set xlabel 'pool size\(escaped)'",
            "set ylabel 'latency (ms)\(escaped)'",
            "set label 1 'recommended 2\(escaped)' at 2, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#d62728' noenhanced",
            "set label 10 'line\(escaped)' at graph 0.02, first 100 offset 0,0.7 textcolor rgb '#2ca02c' noenhanced",
            "set label 3 'point\(escaped)' at 2, 0.5 point pt 7 ps 2.2 lc rgb '#d62728' offset 1.2,-1.2 textcolor rgb '#d62728' front",
            "# a model\(commented)",
            "C = 1000.0  # µs on CPU\(commented)",
            "plot dir.'demo.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 dt 2 pt 7 ps 1.5 lc rgb '#1f77b4' title 'first\(escaped)' noenhanced, \\",
            "     '' index 1 using 0:2:xtic(3) with boxes lc rgb '#ff7f0e' title 'second\(escaped)', \\",
        ]
        for line in lines {
            #expect(chart.script.contains("\n" + line + "\n") || chart.script.hasPrefix(line + "\n"), "\(line)")
        }
        let data = chart.dataFiles[0].text
        #expect(data.hasPrefix("# demo data\(commented)\n# size  value  label\n# index 0: first\(commented)\n"))
        #expect(data.contains("\n1  0.5  \"oneq' 'd' \\b @m $x \u{02CB}id\u{02CB} 'tail\"\n"))
    }
}
