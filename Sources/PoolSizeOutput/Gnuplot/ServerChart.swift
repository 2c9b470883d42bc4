import PoolSizeModel

/// What each size cost the server in a server sweep: the cores its processes kept busy (left
/// axis) and their resident memory (right axis) over the pool size, with the recommendation
/// marked: the size's price beside the throughput and latency charts.
package enum ServerChart: RunChart {
    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        let rows = analysis.serverRows
        guard !rows.isEmpty else { return nil }
        let data = PlotData(
            name: "server.dat",
            header: [
                "the server's processes per size, means over its valid trials",
                "pool_size  cores_busy  rss_mib  requests_per_s",
            ],
            blocks: [
                PlotData.Block(
                    comments: [],
                    rows: rows.map { row in
                        [
                            .integer(row.size), .number(row.cores), .number(row.rssKilobytes / 1024),
                            .number(row.throughputPerSecond),
                        ]
                    })
            ])
        var settings: [PlotSetting] = [
            .label(.x, "pool size N (the server's threads)"),
            .label(.y, "cores its processes kept busy"),
            .label(.y2, "resident memory (MiB)"),
            .grid(.both),
            .range(.x, low: 0, high: GnuplotScript.axisMaximum(rows.map(\.size))),
            .range(.y, low: 0, high: nil),
            .range(.y2, low: 0, high: nil),
            .secondAxisTics,
        ]
        // An open loop whose sizes all missed the objective has a size it names, not a recommendation.
        if let recommendation = analysis.primary?.recommendation, recommendation.sizing.reachedItsTarget {
            let recommended = recommendation.recommendedQueueCount
            settings.append(
                .verticalMarker(
                    tag: 10, x: Double(recommended), text: "recommended \(recommended)",
                    color: GnuplotScript.kneeColor, dash: 2))
        }
        let series = [
            PlotSeries(
                .file(data.name), block: 0, columns: [.column(1), .column(2)], axis: .y,
                style: PlotStyle(.linespoints, [.width(2), .pointType(7)], color: GnuplotScript.color(0)),
                title: .literal("cores busy")),
            PlotSeries(
                .sameFile, block: 0, columns: [.column(1), .column(3)], axis: .y2,
                style: PlotStyle(.linespoints, [.width(2), .dash(2), .pointType(5)], color: GnuplotScript.color(1)),
                title: .literal("memory (MiB)")),
        ]
        return PlotSpec(
            name: "server", caption: "What each size cost the server", headline: analysis.run.headline,
            note:
                "The cores the server's processes kept busy (solid, left axis) and their resident memory (dashed, right axis) at each pool size, read from /proc over each trial's window; the dashed vertical line is the recommendation.",
            dataNote: "Data: server.dat.", settings: settings, series: series, data: [data])
    }
}
