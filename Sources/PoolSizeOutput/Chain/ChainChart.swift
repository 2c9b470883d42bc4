import PoolSizeAnalysis
import PoolSizeModel

/// A chain's throughput over its two main knobs: one curve per row (the held knobs' values),
/// the swept knob along x, the recommended cell marked.
package enum ChainChart {
    package static func plot(
        _ cells: [ChainCellFigures], space: KnobSpace, answer: ChainAnswer?, headline: String
    ) -> PlotSpec? {
        guard let swept = space.swept else { return nil }
        var rows: [(label: String, points: [(Int, Double)])] = []
        for figures in cells {
            guard let throughput = figures.throughputPerSecond else { continue }
            let held = space.free.filter { $0.name != swept.name }.map { "\($0.name)=\(figures.cell[$0.name])" }
            let label = held.isEmpty ? "all" : held.joined(separator: " ")
            if let index = rows.firstIndex(where: { $0.label == label }) {
                rows[index].points.append((figures.cell[swept.name], throughput))
            } else {
                rows.append((label, [(figures.cell[swept.name], throughput)]))
            }
        }
        guard !rows.isEmpty else { return nil }
        let data = PlotData(
            name: "chain.dat",
            header: [
                "a chain's measured cells, one block per row of the held knobs",
                "\(swept.name)  throughput_per_s",
            ],
            blocks: rows.map { row in
                PlotData.Block(
                    comments: [row.label], rows: row.points.map { [.integer($0.0), .number($0.1)] })
            })
        let sizes = cells.map { $0.cell[swept.name] }
        var settings = PlotSetting.sizeAxes(
            x: "\(swept.name) (the knob each row sweeps)", y: "throughput (requests/s)", sizes: sizes)
        if let answer, let throughput = answer.recommended.throughputPerSecond {
            settings.append(
                .pointMarker(
                    tag: 10, x: Double(answer.recommended.cell[swept.name]), y: throughput,
                    text: "recommended", color: GnuplotScript.recommendedColor))
        }
        let series = rows.enumerated().map { index, row in
            PlotSeries(
                index == 0 ? .file(data.name) : .sameFile, block: index, columns: [.column(1), .column(2)],
                style: PlotStyle(
                    .linespoints, [.width(2), .pointType(GnuplotScript.pointType(index))],
                    color: GnuplotScript.color(index)),
                title: .literal(row.label))
        }
        return PlotSpec(
            name: "chain", caption: "Throughput over the chain's knobs",
            headline: headline + (answer.map { "; recommended \($0.recommended.cell)" } ?? ""),
            note:
                "Mean throughput of each measured cell: one curve per value of the held knobs, the swept knob along the axis; the marked point is the recommended cell.",
            dataNote: "Data: chain.dat, a block per curve.", settings: settings, series: series, data: [data])
    }
}

extension ChainChart {
    /// The chart's script and data, ready to write; nil when no cell was measured.
    package static func chart(
        _ cells: [ChainCellFigures], space: KnobSpace, answer: ChainAnswer?, headline: String
    ) -> Chart? {
        plot(cells, space: space, answer: answer, headline: headline).map(GnuplotScript.render)
    }
}
