import PoolSizeAnalysis
import PoolSizeModel

/// An open-loop run's latency against pool size at the rate sized for: p50 and the objective's
/// percentile (from each task's intended arrival, the worst repetition), the queueing model's
/// percentile dashed, the objective as a horizontal line, sizes that fell behind marked, and
/// the recommendation. Log latency axis: a size that falls behind waits seconds, one that keeps
/// up milliseconds.
package enum OpenLoopSizeChart {
    package static let name = "latency-size"

    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        guard let open = analysis.openLoop, let primary = analysis.primary,
            let table = open.table(primary.combination, rate: open.topRate), !table.verdicts.isEmpty
        else { return nil }
        let others = analysis.curves.dropFirst().prefix(ThroughputChart.maximumSecondaryCurves - 1)
            .compactMap { open.table($0.combination, rate: open.topRate) }.filter { !$0.verdicts.isEmpty }
        if !others.isEmpty { return combinationsChart(analysis, open: open, tables: [table] + others) }
        let percentile = open.percentileName
        let rate = UnitFormat.rate(table.arrivalRate)
        let caption = "Latency vs pool size at \(rate) (open loop)"
        let sizes = table.verdicts.map(\.poolSize)

        var data =
            GnuplotScript.comment(
                "open-loop latency from each task's intended arrival, by pool size, at \(rate) (\(primary.combination.label))"
            ) + "\n"
        data +=
            "# pool_size  p50_ms  \(percentile)_ms  model_\(percentile)_ms  fell_behind_\(percentile)_ms  stable   (\(percentile): worst repetition; NaN: none)\n"
        data += GnuplotScript.rows(
            table.verdicts.map { v in
                [String(v.poolSize), LatencyChart.milliseconds(v.p50Microseconds)] + verdictColumns(v)
            })

        var body = axes(caption, analysis: analysis, sizes: sizes)
        // A column with no finite value is not plotted: gnuplot would warn of an empty plot.
        var plots = [
            "dir.'\(name).dat' using 1:2 with linespoints lw 2 pt 7 lc rgb '\(GnuplotScript.color(0))' title 'p50'",
            "'' using 1:3 with linespoints lw 2.5 pt 5 lc rgb '\(GnuplotScript.color(1))' title \(GnuplotScript.quote("\(percentile) (worst repetition)"))",
        ]
        let modelled = table.verdicts.contains { $0.modelPercentileMicroseconds != nil }
        if modelled {
            plots.append(
                "'' using 1:4 with linespoints dt 2 lw 2 pt 6 lc rgb '\(GnuplotScript.grey)' title \(GnuplotScript.quote("\(percentile) by the queueing model (M/M/c)"))"
            )
        }
        if table.verdicts.contains(where: { !$0.stable }) {
            plots.append(
                "'' using 1:5 with points pt 2 ps 2 lw 2 lc rgb '\(GnuplotScript.recommendedColor)' title 'fell behind (a lower bound)'"
            )
        }
        if let line = OpenLoopRateChart.objectiveLine(open) { plots.append(line) }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))

        var note =
            "Latency at \(rate) counted from each task's intended arrival, so queueing behind a busy pool is in it: the median (p50) and the \(percentile) of the worst repetition, on a log scale."
        if modelled {
            note +=
                " The dashed grey line is the queueing model's \(percentile) (the task's own time plus M/M/c's wait for a free queue); it has no value where the model's queue cannot keep up."
        }
        if open.arrival.latencySLOMicroseconds != nil {
            note +=
                " The horizontal line is the objective; the recommendation is the smallest size from which on every size stays under it."
        }
        if table.verdicts.contains(where: { !$0.stable }) {
            note +=
                " Crosses mark sizes that fell behind the arrivals: their percentiles only grow with a longer trial."
        }
        return Chart(
            name: name, caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: name, caption: caption, headline: analysis.run.headline, dataComment: ["Data: \(name).dat."],
                body: body, legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: name + ".dat", text: data)])
    }
}

extension OpenLoopSizeChart {
    /// Title, log latency axis against pool size, and the recommendation's marker when it met
    /// the objective: what both latency-size charts share.
    static func axes(_ caption: String, analysis: RunAnalysis, sizes: [Int]) -> [String] {
        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'pool size N (queues)'",
            "set ylabel 'latency from intended arrival (ms, log scale)'",
            "set logscale y",
            "set format y '%g'",
            "set grid",
            "set xrange [0:\(GnuplotScript.axisMaximum(sizes))]",
        ]
        if let r = analysis.primary?.recommendation, r.latency?.met == true {
            body += GnuplotScript.verticalMarker(
                tag: 1, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                color: GnuplotScript.recommendedColor, dash: 3)
        }
        return body
    }

    /// A size's data columns after its size (and p50): the objective's percentile (worst
    /// repetition), the model's, the percentile again where the size fell behind (for the
    /// crosses), and 1 when it kept up.
    static func verdictColumns(_ v: SLOVerdict) -> [String] {
        [
            LatencyChart.milliseconds(v.percentileMicroseconds),
            v.modelPercentileMicroseconds.map(LatencyChart.milliseconds) ?? "NaN",
            v.stable ? "NaN" : LatencyChart.milliseconds(v.percentileMicroseconds), v.stable ? "1" : "0",
        ]
    }

    /// Several pool kinds, tiers or primitives at the rate sized for: the objective's percentile
    /// (worst repetition) against size, one line per combination (the recommended one first),
    /// each combination's sizes that fell behind crossed in its colour, the queueing model once
    /// (it depends on the task's low-load times, the same for every combination), the objective
    /// and the recommendation.
    static func combinationsChart(_ analysis: RunAnalysis, open: RunAnalysis.OpenLoop, tables: [OpenLoopRateTable])
        -> Chart
    {
        let percentile = open.percentileName
        let rate = UnitFormat.rate(tables[0].arrivalRate)
        let caption = "Latency vs pool size at \(rate) (open loop), by pool / qos / primitive"
        let sizes = tables.flatMap { $0.verdicts.map(\.poolSize) }

        var data =
            GnuplotScript.comment(
                "open-loop \(percentile) latency from each task's intended arrival, by pool size, at \(rate), one block per pool / qos / primitive"
            ) + "\n"
        data +=
            "# pool_size  \(percentile)_ms  model_\(percentile)_ms  fell_behind_\(percentile)_ms  stable   (\(percentile): worst repetition; NaN: none)\n"
        for (index, table) in tables.enumerated() {
            if index > 0 { data += "\n\n" }
            data += GnuplotScript.comment("index \(index): \(table.combination.label)") + "\n"
            data += GnuplotScript.rows(table.verdicts.map { v in [String(v.poolSize)] + verdictColumns(v) })
        }

        var body = axes(caption, analysis: analysis, sizes: sizes)
        var plots: [String] = []
        for (index, table) in tables.enumerated() {
            let source = index == 0 ? "dir.'\(name).dat'" : "''"
            plots.append(
                "\(source) index \(index) using 1:2 with linespoints lw 2 pt \(GnuplotScript.pointType(index)) lc rgb '\(GnuplotScript.color(index))' title \(GnuplotScript.quote(analysis.legend(table.combination) + " \(percentile)")) noenhanced"
            )
        }
        let modelled = tables[0].verdicts.contains { $0.modelPercentileMicroseconds != nil }
        if modelled {
            plots.append(
                "'' index 0 using 1:3 with linespoints dt 2 lw 2 pt 6 lc rgb '\(GnuplotScript.grey)' title \(GnuplotScript.quote("\(percentile) by the queueing model (M/M/c)"))"
            )
        }
        let fellBehind = tables.enumerated().filter { $0.element.verdicts.contains { !$0.stable } }
        for (position, (index, _)) in fellBehind.enumerated() {
            let title = position == 0 ? "title 'fell behind (a lower bound)'" : "notitle"
            plots.append(
                "'' index \(index) using 1:4 with points pt 2 ps 2 lw 2 lc rgb '\(GnuplotScript.color(index))' \(title)"
            )
        }
        if let line = OpenLoopRateChart.objectiveLine(open) { plots.append(line) }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))

        var note =
            "The \(percentile) of the worst repetition at \(rate), counted from each task's intended arrival, for each pool kind, QoS tier and primitive measured (the recommended one first), on a log scale."
        if modelled {
            note +=
                " The dashed grey line is the queueing model's \(percentile) (the task's own time plus M/M/c's wait for a free queue), the same for every combination."
        }
        if open.arrival.latencySLOMicroseconds != nil { note += " The horizontal line is the objective." }
        if !fellBehind.isEmpty {
            note +=
                " Crosses mark sizes that fell behind the arrivals, in their combination's colour: their percentiles only grow with a longer trial."
        }
        return Chart(
            name: name, caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: name, caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: \(name).dat (one block per pool / qos / primitive)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: name + ".dat", text: data)])
    }
}

/// An open-loop range of rates: the objective's percentile against the offered rate, one line
/// per size (flat while the size keeps up, then the hockey stick), the queueing model's curve
/// dashed beside each in the same colour, the objective as a horizontal line, and the points
/// where a size fell behind marked.
package enum OpenLoopRateChart {
    package static let name = "latency-rate"
    /// Sizes drawn; more would make the legend unreadable.
    package static let maximumSizes = 8
    /// Rates at which the model's curve is drawn between the lowest and highest measured.
    static let modelSamples = 80

    package static func chart(_ analysis: RunAnalysis) -> Chart? {
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

        var data =
            GnuplotScript.comment(
                "open-loop \(percentile) latency from each task's intended arrival by offered rate, one block per pool size (\(primary.combination.label))"
            ) + "\n"
        data +=
            "# rate_per_s  \(percentile)_ms  stable  fell_behind_\(percentile)_ms   (worst repetition; NaN: not measured)\n"
        var model =
            "# the queueing model's \(percentile) (the task's own time + M/M/c's wait for a free queue) by offered rate, one block per pool size\n"
        model += "# rate_per_s  model_\(percentile)_ms   (NaN: the model's queue cannot keep up)\n"
        var modelled: [Int] = []
        for (index, size) in sizes.enumerated() {
            if index > 0 { data += "\n\n"; model += "\n\n" }
            data += "# index \(index): N = \(size)\n"
            data += GnuplotScript.rows(
                tables.compactMap { t in
                    t.verdict(size).map { v in
                        [
                            GnuplotScript.number(t.arrivalRate.perSecond),
                            LatencyChart.milliseconds(v.percentileMicroseconds), v.stable ? "1" : "0",
                            v.stable ? "NaN" : LatencyChart.milliseconds(v.percentileMicroseconds),
                        ]
                    }
                })
            model += "# index \(index): N = \(size)\n"
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
            model += GnuplotScript.rows(
                values.map { [GnuplotScript.number($0.0), $0.1.map(LatencyChart.milliseconds) ?? "NaN"] })
        }

        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'offered arrival rate (tasks/s)'",
            "set ylabel \(GnuplotScript.quote("\(percentile) latency from intended arrival (ms, log scale)"))",
            "set logscale y",
            "set format y '%g'",
            "set grid",
            // The measured rates and 5% either side: below the lowest rate there is nothing to see.
            "set xrange [\(GnuplotScript.number(max(0, (low - 0.05 * (high - low)).rounded(.down)))):\(GnuplotScript.number((high + 0.05 * (high - low)).rounded(.up)))]",
        ]
        var plots: [String] = []
        for (index, size) in sizes.enumerated() {
            let file = index == 0 ? "dir.'\(name).dat'" : "''"
            plots.append(
                "\(file) index \(index) using 1:2 with linespoints lw 2 pt \(GnuplotScript.pointType(index)) lc rgb '\(GnuplotScript.color(index))' title \(GnuplotScript.quote("N = \(size)"))"
            )
        }
        // Blocks with no finite value are not plotted: gnuplot would warn of an empty plot.
        for index in modelled {
            plots.append(
                "dir.'\(name)-model.dat' index \(index) using 1:2 with lines dt 2 lw 1.5 lc rgb '\(GnuplotScript.color(index))' notitle"
            )
        }
        if !modelled.isEmpty {
            plots.append(
                "NaN with lines dt 2 lw 1.5 lc rgb '\(GnuplotScript.grey)' title 'dashed: the queueing model (M/M/c) for the same N'"
            )
        }
        let behind = sizes.indices.filter { index in tables.contains { $0.verdict(sizes[index])?.stable == false } }
        for index in behind {
            plots.append(
                "dir.'\(name).dat' index \(index) using 1:4 with points pt 2 ps 2 lw 2 lc rgb '\(GnuplotScript.recommendedColor)' "
                    + (index == behind.first ? "title 'fell behind (a lower bound)'" : "notitle"))
        }
        if let line = objectiveLine(open) { plots.append(line) }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))

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
        let dataFiles = [DataFile(name: name + ".dat", text: data), DataFile(name: name + "-model.dat", text: model)]
        return Chart(
            name: name, caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: name, caption: caption, headline: analysis.run.headline,
                dataComment: [
                    "Data: \(name).dat (measured, one block per pool size) and \(name)-model.dat (the queueing model)."
                ], body: body, legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: dataFiles)
    }

    /// The objective as a horizontal line in the legend: `40 with lines … title 'objective: p99 ≤ 40 ms'`.
    static func objectiveLine(_ open: RunAnalysis.OpenLoop) -> String? {
        guard let slo = open.arrival.latencySLOMicroseconds, slo > 0 else { return nil }
        return
            "\(GnuplotScript.real(slo / 1000)) with lines dt 4 lw 2 lc rgb '\(GnuplotScript.kneeColor)' title \(GnuplotScript.quote("objective: \(open.percentileName) ≤ \(UnitFormat.duration(microseconds: slo))"))"
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
