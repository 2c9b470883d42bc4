import PoolSizeAnalysis
import PoolSizeModel

/// An open-loop range of rates: the objective's percentile against the offered rate, one line
/// per size (flat while the size keeps up, then the hockey stick), the queueing model's curve
/// dashed beside each in the same colour, the objective as a horizontal line, and the points
/// where a size fell behind marked.
package enum OpenLoopRateChart: RunChart {
    package static let name = "latency-rate"
    /// Sizes drawn; more would make the legend unreadable.
    package static let maximumSizes = 8
    /// Rates at which the model's curve is drawn between the lowest and highest measured.
    static let modelSamples = 80

    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        guard let open = analysis.openLoop, open.isRange, let primary = analysis.primary else { return nil }
        let tables = open.tables(primary.combination)
        guard tables.count > 1 else { return nil }
        let percentile = open.percentileName
        let caption = "\(percentile) latency vs arrival rate, one line per pool size (open loop)"
        let sizes = chartSizes(
            Set(tables.flatMap { $0.verdicts.map(\.poolSize) }).sorted(),
            keep: tables.compactMap(\.recommendedQueueCount))
        let rates = tables.map(\.arrivalRate.perSecond)
        let (low, high) = (rates.min()!, rates.max()!)

        var measured = PlotData(
            name: name + ".dat",
            header: [
                "open-loop \(percentile) latency from each task's intended arrival by offered rate, one block per pool size (\(primary.combination.label))",
                "rate_per_s  \(percentile)_ms  stable  fell_behind_\(percentile)_ms   (worst repetition; NaN: not measured)",
            ],
            blocks: [])
        var model = PlotData(
            name: name + "-model.dat",
            header: [
                "the queueing model's \(percentile) (the task's own time + M/M/c's wait for a free queue) by offered rate, one block per pool size",
                "rate_per_s  model_\(percentile)_ms   (NaN: the model's queue cannot keep up)",
            ],
            blocks: [])
        var modelled: [Int] = []
        for (index, size) in sizes.enumerated() {
            measured.blocks.append(
                PlotData.Block(
                    comments: ["index \(index): N = \(size)"],
                    rows: tables.compactMap { t in
                        t.verdict(size).map { v in
                            [
                                .number(t.arrivalRate.perSecond), LatencyChart.milliseconds(v.percentileMicroseconds),
                                .integer(v.stable ? 1 : 0),
                                v.stable ? .missing : LatencyChart.milliseconds(v.percentileMicroseconds),
                            ]
                        }
                    }))
            let values = modelRates(size: size, low: low, high: high, lowLoad: analysis.run.lowLoad).map { rate in
                (
                    rate,
                    analysis.run.lowLoad.flatMap {
                        SLOSizer.modelPercentile(
                            size: size, rate: rate, lowLoad: $0, percentile: open.arrival.sloPercentile)
                    }
                )
            }
            if values.contains(where: { $0.1 != nil }) { modelled.append(index) }
            model.blocks.append(
                PlotData.Block(
                    comments: ["index \(index): N = \(size)"],
                    rows: values.map { [.number($0.0), $0.1.map(LatencyChart.milliseconds) ?? .missing] }))
        }

        let settings: [PlotSetting] = [
            .label(.x, "offered arrival rate (tasks/s)"),
            .label(.y, "\(percentile) latency from intended arrival (ms, log scale)"),
            .logScale(.y),
            .grid(.both),
            // The measured rates and 5% either side: below the lowest rate there is nothing to see.
            .range(
                .x, low: max(0, (low - 0.05 * (high - low)).rounded(.down)),
                high: (high + 0.05 * (high - low)).rounded(.up)),
        ]
        var series = sizes.enumerated().map { index, size in
            PlotSeries(
                index == 0 ? .file(measured.name) : .sameFile, block: index, columns: [.column(1), .column(2)],
                style: .measuredLine(index),
                title: .enhanced("N = \(size)"))
        }
        // Blocks with no finite value are not plotted: gnuplot would warn of an empty plot.
        for index in modelled {
            series.append(
                PlotSeries(
                    .file(model.name), block: index, columns: [.column(1), .column(2)],
                    style: PlotStyle(.lines, [.dash(2), .width(1.5)], color: GnuplotScript.color(index)),
                    title: .hidden))
        }
        if !modelled.isEmpty {
            series.append(
                PlotSeries(
                    .constant(.nan), style: PlotStyle(.lines, [.dash(2), .width(1.5)], color: GnuplotScript.grey),
                    title: .enhanced("dashed: the queueing model (M/M/c) for the same N")))
        }
        let behind = sizes.indices.filter { index in tables.contains { $0.verdict(sizes[index])?.stable == false } }
        for index in behind {
            series.append(
                PlotSeries(
                    .file(measured.name), block: index, columns: [.column(1), .column(4)],
                    style: OpenLoopSizeChart.fellBehindStyle(GnuplotScript.recommendedColor),
                    title: index == behind.first ? .enhanced("fell behind (a lower bound)") : .hidden))
        }
        if let line = objectiveLine(open) { series.append(line) }

        var note =
            "The \(percentile) latency (worst repetition, from each task's intended arrival) at each offered rate, one line per pool size, on a log scale: flat while the size keeps up, then turning up as the rate nears what it can carry."
        if !modelled.isEmpty {
            note +=
                " Beside each, dashed in the same colour, the queueing model's \(percentile) for that size: where the two part, the machine differs from M/M/c (task times that are not exponential, CPU contention, the dispatcher)."
        }
        if open.arrival.latencySLOMicroseconds != nil { note += " The horizontal line is the objective." }
        if sizes.count < Set(tables.flatMap { $0.verdicts.map(\.poolSize) }).count {
            note +=
                " \(sizes.count) of the sizes measured are drawn (those recommended at some rate first); summary.csv has all."
        }
        return PlotSpec(
            name: name, caption: caption, headline: analysis.run.headline, note: note,
            dataNote:
                "Data: \(name).dat (measured, one block per pool size) and \(name)-model.dat (the queueing model).",
            settings: settings, series: series, data: [measured, model])
    }

    /// The objective as a horizontal line in the legend: `40 with lines … title 'objective: p99 ≤ 40 ms'`.
    static func objectiveLine(_ open: RunAnalysis.OpenLoop) -> PlotSeries? {
        guard let slo = open.arrival.latencySLOMicroseconds, slo > 0 else { return nil }
        return PlotSeries(
            .constant(slo / 1000), style: PlotStyle(.lines, [.dash(4), .width(2)], color: GnuplotScript.kneeColor),
            title: .enhanced("objective: \(open.percentileName) ≤ \(UnitFormat.duration(microseconds: slo))"))
    }

    /// At most `maximumSizes`: those in `keep` (recommended at some rate), then evenly spread others.
    static func chartSizes(_ sizes: [Int], keep: [Int]) -> [Int] {
        guard sizes.count > maximumSizes else { return sizes }
        var chosen = Set(keep.filter(sizes.contains).prefix(maximumSizes))
        let rest = sizes.filter { !chosen.contains($0) }
        let room = maximumSizes - chosen.count
        if room > 0, !rest.isEmpty {
            for k in 0..<room {
                chosen.insert(rest[Int((Double(k) * Double(rest.count - 1) / Double(max(1, room - 1))).rounded())])
            }
        }
        return chosen.sorted()
    }

    /// Evenly spaced rates from `low` to `high`, and more where `size` queues near their capacity
    /// (size / (C + W)), where the model's curve turns up steeply.
    static func modelRates(size: Int, low: Double, high: Double, lowLoad: LowLoadEstimate?) -> [Double] {
        var rates = (0...modelSamples).map { low + (high - low) * Double($0) / Double(modelSamples) }
        if let l = lowLoad, l.cpuMicrosecondsPerTask + l.waitMicrosecondsPerTask > 0 {
            let capacity = Double(size) / ((l.cpuMicrosecondsPerTask + l.waitMicrosecondsPerTask) / 1e6)
            rates += [0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999].map { capacity * $0 }.filter { $0 > low && $0 < high }
        }
        return rates.sorted()
    }
}
