import Foundation

/// Bars with optional min–max error bars and the value printed above each bar: the shape of
/// every "compared at one size" chart (primitives, QoS tiers, contention shares).
enum BarChart {
    struct Bar: Equatable {
        var label: String
        var value: Double
        /// Range of the repetitions; nil draws no error bar.
        var low: Double?
        var high: Double?
    }

    /// - Parameter valueFormat: gnuplot `sprintf` format for the label above each bar.
    static func chart(
        name: String, caption: String, note: String, analysis: RunAnalysis, xlabel: String, ylabel: String,
        barTitle: String,
        bars: [Bar], valueFormat: String, dataHeader: String
    ) -> Chart {
        let errorBars = bars.contains { $0.low != nil && $0.high != nil }
        let highest = bars.map { max($0.value, $0.high ?? $0.value) }.filter(\.isFinite).max() ?? 1
        var data = GnuplotScript.comment(dataHeader) + "\n# label  value  min  max\n"
        data += GnuplotScript.rows(
            bars.map { bar in
                [
                    GnuplotScript.label(bar.label), GnuplotScript.number(bar.value),
                    GnuplotScript.number(bar.low ?? bar.value), GnuplotScript.number(bar.high ?? bar.value),
                ]
            })
        let rotate = bars.map(\.label.count).reduce(0, +) > 70
        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel \(GnuplotScript.quote(xlabel))",
            "set ylabel \(GnuplotScript.quote(ylabel))",
            "set style fill solid 0.85 border lc rgb '#333333'",
            "set boxwidth 0.6",
            "set grid ytics",
            "set xrange [-0.6:\(GnuplotScript.number(Double(bars.count) - 0.4))]",
            "set yrange [0:\(GnuplotScript.number(niceCeiling(highest * 1.15)))]",
            rotate ? "set xtics nomirror rotate by 25 right noenhanced" : "set xtics nomirror noenhanced",
        ]
        // Labels rotated to end under their bar reach left of the first one: leave them room.
        if rotate { body.append("set lmargin \(min(30, 6 + (bars.first?.label.count ?? 0) * 3 / 4))") }
        var plots = [
            "dir.'\(name).dat' using 0:2:xtic(1) with boxes lc rgb '\(GnuplotScript.palette[0])' title \(GnuplotScript.quote(barTitle)) noenhanced"
        ]
        if errorBars {
            plots.append(
                "'' using 0:2:3:4 with yerrorbars lw 1.5 pt 7 ps 0.6 lc rgb 'black' title 'mean, slowest to fastest repetition'"
            )
        }
        plots.append("'' using 0:4:(sprintf(\(GnuplotScript.quote(valueFormat)), $2)) with labels offset 0,0.8 notitle")
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))
        return Chart(
            name: name, caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: name, caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: \(name).dat (one row per bar)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: name + ".dat", text: data)])
    }

    /// 1, 2, 2.5 or 5 × a power of ten at or above `value`, so the axis ends on a round number.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2, 2.5, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }
}
