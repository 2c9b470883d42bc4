/// Task latency (submission to completion) p50 and p99 vs pool size, on a log scale: past the
/// knee extra queues add no throughput, and latency shows what they cost instead.
package enum LatencyChart: RunChart {
    /// nil when the run recorded no latency (every percentile 0): a log axis of nothing would
    /// be an empty, broken chart.
    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        let curves = Array(analysis.curves.prefix(ThroughputChart.maximumSecondaryCurves))
        guard
            curves.contains(where: {
                $0.points.contains { $0.latencyP50Microseconds > 0 || $0.latencyP99Microseconds > 0 }
            })
        else { return nil }
        let caption = "Latency p50 and p99 vs pool size"
        let sizes = analysis.summaries.map(\.poolSize)

        let data = PlotData(
            name: "latency.dat",
            header: [
                "task latency (submit to completion) by pool size, one block per pool / qos / primitive",
                "pool_size  p50_ms  p99_ms   (means over repetitions; NaN: not recorded)",
            ],
            blocks: PlotData.indexed(curves, label: \.combination.label) { curve in
                curve.points.map { p in
                    [
                        .integer(p.poolSize), milliseconds(p.latencyP50Microseconds),
                        milliseconds(p.latencyP99Microseconds),
                    ]
                }
            })

        var settings: [PlotSetting] = [
            .label(.x, "pool size N (queues)"),
            .label(.y, "latency (ms, log scale)"),
            .logScale(.y),
            .grid(.both),
            .range(.x, low: 0, high: GnuplotScript.axisMaximum(sizes)),
        ]
        // Within two decades gnuplot labels only the powers of ten; label every doubling instead.
        let values = curves.flatMap(\.points).flatMap { [$0.latencyP50Microseconds, $0.latencyP99Microseconds] }.filter
        { $0 > 0 }
        if let low = values.min(), let high = values.max(), high / low < 100 { settings.append(.ticStep(.y, 2)) }
        if let r = analysis.primary?.recommendation {
            settings.append(
                .verticalMarker(
                    tag: 1, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                    color: GnuplotScript.recommendedColor, dash: 3))
        }
        var series: [PlotSeries] = []
        for (index, curve) in curves.enumerated() {
            let prefix = curves.count == 1 ? "" : analysis.legend(curve.combination) + " "
            let color = GnuplotScript.color(index)
            series.append(
                PlotSeries(
                    .file(data.name), block: index, columns: [.column(1), .column(2)],
                    style: PlotStyle(
                        .linespoints, [.width(2), .pointType(GnuplotScript.pointType(index))], color: color),
                    title: .literal(prefix + "p50")))
            series.append(
                PlotSeries(
                    .sameFile, block: index, columns: [.column(1), .column(3)],
                    style: PlotStyle(
                        .linespoints, [.width(2), .dash(2), .pointType(GnuplotScript.pointType(index) - 1)],
                        color: color),
                    title: .literal(prefix + "p99")))
        }
        return PlotSpec(
            name: "latency", caption: caption, headline: analysis.run.headline,
            note:
                "Median (solid) and 99th-percentile (dashed) time from submitting a task to its completion, mean over the repetitions, on a log scale. Where throughput has flattened, more queues only lengthen the queue each task waits in.",
            dataNote: "Data: latency.dat (one block per pool / qos / primitive).", settings: settings, series: series,
            data: [data])
    }

    /// Milliseconds; a percentile of 0 was not recorded and is left out of a log axis.
    static func milliseconds(_ microseconds: Double) -> PlotCell {
        microseconds > 0 ? .number(microseconds / 1000) : .missing
    }
}
