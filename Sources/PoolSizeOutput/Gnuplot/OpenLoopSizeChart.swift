import PoolSizeAnalysis
import PoolSizeModel

/// An open-loop run's latency against pool size at the rate sized for: p50 and the objective's
/// percentile (from each task's intended arrival, the worst repetition), the queueing model's
/// percentile dashed, the objective as a horizontal line, sizes that fell behind marked, and
/// the recommendation. Log latency axis: a size that falls behind waits seconds, one that keeps
/// up milliseconds.
package enum OpenLoopSizeChart: RunChart {
    package static let name = "latency-size"

    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        guard let open = analysis.openLoop, let primary = analysis.primary,
            let table = open.table(primary.combination, rate: open.topRate), !table.verdicts.isEmpty
        else { return nil }
        let others = analysis.curves.dropFirst().prefix(ThroughputChart.maximumSecondaryCurves - 1)
            .compactMap { open.table($0.combination, rate: open.topRate) }.filter { !$0.verdicts.isEmpty }
        if !others.isEmpty { return combinationsPlot(analysis, open: open, tables: [table] + others) }
        let percentile = open.percentileName
        let rate = UnitFormat.rate(table.arrivalRate)
        let caption = "Latency vs pool size at \(rate) (open loop)"
        let sizes = table.verdicts.map(\.poolSize)

        let data = PlotData(
            name: name + ".dat",
            header: [
                "open-loop latency from each task's intended arrival, by pool size, at \(rate) (\(primary.combination.label))",
                "pool_size  p50_ms  \(percentile)_ms  model_\(percentile)_ms  fell_behind_\(percentile)_ms  stable   (\(percentile): worst repetition; NaN: none)",
            ],
            blocks: [
                PlotData.Block(
                    rows: table.verdicts.map { v in
                        [.integer(v.poolSize), LatencyChart.milliseconds(v.p50Microseconds)] + verdictColumns(v)
                    })
            ])

        // A column with no finite value is not plotted: gnuplot would warn of an empty plot.
        var series = [
            PlotSeries(
                .file(data.name), columns: [.column(1), .column(2)],
                style: PlotStyle(.linespoints, [.width(2), .pointType(7)], color: GnuplotScript.color(0)),
                title: .enhanced("p50")),
            PlotSeries(
                .sameFile, columns: [.column(1), .column(3)],
                style: PlotStyle(.linespoints, [.width(2.5), .pointType(5)], color: GnuplotScript.color(1)),
                title: .enhanced("\(percentile) (worst repetition)")),
        ]
        let modelled = table.verdicts.contains { $0.modelPercentileMicroseconds != nil }
        if modelled { series.append(modelSeries(percentile, block: nil, column: 4)) }
        if table.verdicts.contains(where: { !$0.stable }) {
            series.append(
                PlotSeries(
                    .sameFile, columns: [.column(1), .column(5)],
                    style: fellBehindStyle(GnuplotScript.recommendedColor),
                    title: .enhanced("fell behind (a lower bound)")))
        }
        if let line = OpenLoopRateChart.objectiveLine(open) { series.append(line) }

        var note =
            "Latency at \(rate) counted from each task's intended arrival, so queueing behind a busy pool is in it: the median (p50) and the \(percentile) of the worst repetition, on a log scale."
        if modelled { note += modelNote(percentile) + "; it has no value where the model's queue cannot keep up." }
        if open.arrival.latencySLOMicroseconds != nil {
            note +=
                " The horizontal line is the objective; the recommendation is the smallest size from which on every size stays under it."
        }
        if table.verdicts.contains(where: { !$0.stable }) {
            note +=
                " Crosses mark sizes that fell behind the arrivals: their percentiles only grow with a longer trial."
        }
        return PlotSpec(
            name: name, caption: caption, headline: analysis.run.headline, note: note,
            dataNote: "Data: \(name).dat.", settings: axes(analysis: analysis, sizes: sizes), series: series,
            data: [data])
    }
}

extension OpenLoopSizeChart {
    /// The log latency axis against pool size, and the recommendation's marker when it met the
    /// objective: what both latency-size charts share.
    static func axes(analysis: RunAnalysis, sizes: [Int]) -> [PlotSetting] {
        var settings: [PlotSetting] = [
            .label(.x, "pool size N (queues)"),
            .label(.y, "latency from intended arrival (ms, log scale)"),
            .logScale(.y),
            .grid(.both),
            .range(.x, low: 0, high: GnuplotScript.axisMaximum(sizes)),
        ]
        if let r = analysis.primary?.recommendation, r.latency?.met == true {
            settings.append(
                .verticalMarker(
                    tag: 1, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                    color: GnuplotScript.recommendedColor, dash: 3))
        }
        return settings
    }

    /// Crosses at the sizes that fell behind.
    /// The queueing model's percentile at each size, dashed grey, from `column` of the data.
    static func modelSeries(_ percentile: String, block: Int?, column: Int) -> PlotSeries {
        PlotSeries(
            .sameFile, block: block, columns: [.column(1), .column(column)],
            style: PlotStyle(.linespoints, [.dash(2), .width(2), .pointType(6)], color: GnuplotScript.grey),
            title: .enhanced("\(percentile) by the queueing model (M/M/c)"))
    }

    /// The note's sentence on `modelSeries`, left open for what the chart adds.
    static func modelNote(_ percentile: String) -> String {
        " The dashed grey line is the queueing model's \(percentile) (the task's own time plus M/M/c's wait for a free queue)"
    }

    static func fellBehindStyle(_ color: String) -> PlotStyle {
        PlotStyle(.points, [.pointType(2), .pointSize(2), .width(2)], color: color)
    }

    /// A size's data columns after its size (and p50): the objective's percentile (worst
    /// repetition), the model's, the percentile again where the size fell behind (for the
    /// crosses), and 1 when it kept up.
    static func verdictColumns(_ v: SLOVerdict) -> [PlotCell] {
        [
            LatencyChart.milliseconds(v.percentileMicroseconds),
            v.modelPercentileMicroseconds.map(LatencyChart.milliseconds) ?? .missing,
            v.stable ? .missing : LatencyChart.milliseconds(v.percentileMicroseconds), .integer(v.stable ? 1 : 0),
        ]
    }

    /// Several pool kinds, tiers or primitives at the rate sized for: the objective's percentile
    /// (worst repetition) against size, one line per combination (the recommended one first),
    /// each combination's sizes that fell behind crossed in its colour, the queueing model once
    /// (it depends on the task's low-load times, the same for every combination), the objective
    /// and the recommendation.
    static func combinationsPlot(_ analysis: RunAnalysis, open: RunAnalysis.OpenLoop, tables: [OpenLoopRateTable])
        -> PlotSpec
    {
        let percentile = open.percentileName
        let rate = UnitFormat.rate(tables[0].arrivalRate)
        let caption = "Latency vs pool size at \(rate) (open loop), by pool / qos / primitive"
        let sizes = tables.flatMap { $0.verdicts.map(\.poolSize) }

        let data = PlotData(
            name: name + ".dat",
            header: [
                "open-loop \(percentile) latency from each task's intended arrival, by pool size, at \(rate), one block per pool / qos / primitive",
                "pool_size  \(percentile)_ms  model_\(percentile)_ms  fell_behind_\(percentile)_ms  stable   (\(percentile): worst repetition; NaN: none)",
            ],
            blocks: PlotData.indexed(tables, label: \.combination.label) { table in
                table.verdicts.map { v in [.integer(v.poolSize)] + verdictColumns(v) }
            })

        var series = tables.enumerated().map { index, table in
            PlotSeries(
                index == 0 ? .file(data.name) : .sameFile, block: index, columns: [.column(1), .column(2)],
                style: .measuredLine(index),
                title: .literal(analysis.legend(table.combination) + " \(percentile)"))
        }
        let modelled = tables[0].verdicts.contains { $0.modelPercentileMicroseconds != nil }
        if modelled { series.append(modelSeries(percentile, block: 0, column: 3)) }
        let fellBehind = tables.indices.filter { tables[$0].verdicts.contains { !$0.stable } }
        for index in fellBehind {
            series.append(
                PlotSeries(
                    .sameFile, block: index, columns: [.column(1), .column(4)],
                    style: fellBehindStyle(GnuplotScript.color(index)),
                    title: index == fellBehind.first ? .enhanced("fell behind (a lower bound)") : .hidden))
        }
        if let line = OpenLoopRateChart.objectiveLine(open) { series.append(line) }

        var note =
            "The \(percentile) of the worst repetition at \(rate), counted from each task's intended arrival, for each pool kind, QoS tier and primitive measured (the recommended one first), on a log scale."
        if modelled { note += modelNote(percentile) + ", the same for every combination." }
        if open.arrival.latencySLOMicroseconds != nil { note += " The horizontal line is the objective." }
        if !fellBehind.isEmpty {
            note +=
                " Crosses mark sizes that fell behind the arrivals, in their combination's colour: their percentiles only grow with a longer trial."
        }
        return PlotSpec(
            name: name, caption: caption, headline: analysis.run.headline, note: note,
            dataNote: "Data: \(name).dat (one block per pool / qos / primitive).",
            settings: axes(analysis: analysis, sizes: sizes), series: series, data: [data])
    }
}
