/// CPU utilization (left axis) and context switches per second (right axis) vs pool size.
/// Utilization reaching 100% is where the formula expects the knee; context switches show the
/// cost of the threads beyond it.
package enum UtilizationChart: RunChart {
    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        // A load tool alone measured no CPU: there is no utilization to draw.
        guard let primary = analysis.primary, analysis.measuresTaskCPU else { return nil }
        let curves = Array(analysis.curves.prefix(ThroughputChart.maximumSecondaryCurves))
        let caption = "CPU utilization and context switches vs pool size"
        let sizes = analysis.summaries.map(\.poolSize)
        let switches = primary.points.contains {
            $0.voluntaryContextSwitchesPerSecond > 0 || $0.involuntaryContextSwitchesPerSecond > 0
        }
        let top = max(
            110,
            ((analysis.summaries.map(\.utilization).filter(\.isFinite).max() ?? 0) * 100 * 1.1 / 10).rounded(.up) * 10)

        let data = PlotData(
            name: "utilization.dat",
            header: [
                "utilization and context switches by pool size, one block per pool / qos / primitive",
                "pool_size  utilization_pct  voluntary_ctx_switches_per_s  involuntary_ctx_switches_per_s  threads",
            ],
            blocks: PlotData.indexed(curves, label: \.combination.label) { curve in
                curve.points.map { p in
                    [
                        .integer(p.poolSize), .number(p.utilization * 100),
                        .number(p.voluntaryContextSwitchesPerSecond),
                        .number(p.involuntaryContextSwitchesPerSecond), .integer(p.threads),
                    ]
                }
            })

        var settings: [PlotSetting] =
            PlotSetting.sizeAxes(
                x: "pool size N (queues)",
                y: "CPU utilization (% of \(analysis.run.cores.map(String.init) ?? "all") cores)", sizes: sizes,
                yHigh: top)
            + [
                .horizontalMarker(tag: 10, y: 100, text: nil, color: GnuplotScript.grey, dash: 2, width: nil)
            ]
        if switches {
            settings += [.label(.y2, "context switches (per s)"), .range(.y2, low: 0, high: nil), .secondAxisTics]
        }
        if let r = primary.recommendation {
            settings.append(
                .verticalMarker(
                    tag: 1, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                    color: GnuplotScript.recommendedColor, dash: 3))
        }
        var series = curves.enumerated().map { index, curve in
            PlotSeries(
                index == 0 ? .file(data.name) : .sameFile, block: index, columns: [.column(1), .column(2)], axis: .y,
                style: .measuredLine(index),
                title: .literal(
                    curves.count == 1 ? "CPU utilization" : "utilization " + analysis.legend(curve.combination)))
        }
        if switches {
            let suffix = curves.count == 1 ? "" : " (" + analysis.legend(primary.combination) + ")"
            series += [
                PlotSeries(
                    .sameFile, block: 0, columns: [.column(1), .column(3)], axis: .y2,
                    style: PlotStyle(.linespoints, [.width(1.5), .dash(3), .pointType(4)], color: "#555555"),
                    title: .literal("voluntary context switches/s" + suffix)),
                PlotSeries(
                    .sameFile, block: 0, columns: [.column(1), .column(4)], axis: .y2,
                    style: PlotStyle(.linespoints, [.width(1.5), .dash(4), .pointType(8)], color: "#111111"),
                    title: .literal("involuntary context switches/s" + suffix)),
            ]
        }
        var note = "Process CPU time over the measurement window × cores (the dashed line is every core busy)."
        note +=
            switches
            ? " Context switches per second are on the right axis: voluntary ones are tasks blocking, involuntary ones are threads preempted for lack of a CPU."
            : " This run recorded no context switches, so only utilization is shown."
        return PlotSpec(
            name: "utilization", caption: caption, headline: analysis.run.headline, note: note,
            dataNote: "Data: utilization.dat (one block per pool / qos / primitive).", settings: settings,
            series: series, data: [data])
    }
}
