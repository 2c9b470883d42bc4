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

    /// - Parameter valueFormat: `printf` format for the label above each bar.
    static func plot(
        name: String, caption: String, note: String, analysis: RunAnalysis, xlabel: String, ylabel: String,
        barTitle: String,
        bars: [Bar], valueFormat: String, dataHeader: String
    ) -> PlotSpec {
        let errorBars = bars.contains { $0.low != nil && $0.high != nil }
        let highest = bars.map { max($0.value, $0.high ?? $0.value) }.filter(\.isFinite).max() ?? 1
        let data = PlotData(
            name: name + ".dat", header: [dataHeader, "label  value  min  max"],
            blocks: [
                PlotData.Block(
                    rows: bars.map { bar in
                        [
                            .text(bar.label), .number(bar.value), .number(bar.low ?? bar.value),
                            .number(bar.high ?? bar.value),
                        ]
                    })
            ])
        let rotate = bars.map(\.label.count).reduce(0, +) > 70
        var settings: [PlotSetting] = [
            .label(.x, xlabel),
            .label(.y, ylabel),
            .fill(opacity: 0.85, border: "#333333"),
            .boxWidth(0.6),
            .grid(.values),
            .range(.x, low: -0.6, high: Double(bars.count) - 0.4),
            .range(.y, low: 0, high: niceCeiling(highest * 1.15)),
            .categoryTics(rotated: rotate),
        ]
        // Labels rotated to end under their bar reach left of the first one: leave them room.
        if rotate { settings.append(.leftMargin(min(30, 6 + (bars.first?.label.count ?? 0) * 3 / 4))) }
        var series = [
            PlotSeries(
                .file(data.name), columns: [.column(0), .column(2), .ticLabel(1)],
                style: PlotStyle(.boxes, color: GnuplotScript.palette[0]), title: .literal(barTitle))
        ]
        if errorBars {
            series.append(
                PlotSeries(
                    .sameFile, columns: [.column(0), .column(2), .column(3), .column(4)],
                    style: PlotStyle(.yerrorbars, [.width(1.5), .pointType(7), .pointSize(0.6)], color: "black"),
                    title: .enhanced("mean, slowest to fastest repetition")))
        }
        series.append(
            PlotSeries(
                .sameFile, columns: [.column(0), .column(4), .formatted(valueFormat, 2)],
                style: PlotStyle(.labels, [.offset(0, 0.8)]), title: .hidden))
        return PlotSpec(
            name: name, caption: caption, headline: analysis.run.headline, note: note,
            dataNote: "Data: \(name).dat (one row per bar).", settings: settings, series: series, data: [data])
    }

    /// 1, 2, 2.5 or 5 × a power of ten at or above `value`, so the axis ends on a round number.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2, 2.5, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }
}
