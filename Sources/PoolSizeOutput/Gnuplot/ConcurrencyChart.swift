import PoolSizeModel

/// Requested vs reached concurrency per pool kind: the most tasks seen executing at once and
/// the OS threads that ran them, against the diagonal "reached = requested". A pool kind below
/// the diagonal cannot be sized by N (docs/platform.md: the global queue stays near `cores` threads).
package enum ConcurrencyChart: RunChart {
    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        // A server's threads are its own: poolsize sees its requests in flight, not its pool's.
        let pools = PoolKind.allCases.filter { kind in
            kind.sizeOwner.showsConcurrency && analysis.curves.contains { $0.combination.pool == kind }
        }
        guard !pools.isEmpty else { return nil }
        let caption = "Requested vs reached concurrency"
        let sizes = analysis.summaries.map(\.poolSize)

        let data = PlotData(
            name: "concurrency.dat",
            header: [
                "requested pool size vs reached concurrency, one block per pool kind (maxima over its tiers, primitives and repetitions)",
                "pool_size  peak_in_flight  threads",
            ],
            blocks: PlotData.indexed(pools, label: \.rawValue) { pool in
                let points = Dictionary(
                    grouping: analysis.summaries.filter { $0.combination.pool == pool }, by: \.poolSize)
                return points.keys.sorted().map { size in
                    [
                        .integer(size), .integer(points[size]!.map(\.peakConcurrency).max()!),
                        .integer(points[size]!.map(\.threads).max()!),
                    ]
                }
            })

        let settings: [PlotSetting] =
            PlotSetting.sizeAxes(
                x: "requested pool size N (queues)", y: "reached (tasks in flight, threads)", sizes: sizes)
            + [
                .headroom(top: 0.08)
            ]
        var series = [
            PlotSeries(
                .identity, style: PlotStyle(.lines, [.dash(2), .width(1.5)], color: GnuplotScript.grey),
                title: .enhanced("reached = requested"))
        ]
        for (index, pool) in pools.enumerated() {
            let color = GnuplotScript.color(index)
            // Pool kinds that reach N draw the same line; each next one is thinner so all show.
            let width = max(1.5, 4.5 - 1.2 * Double(index)), size = max(0.8, 1.6 - 0.3 * Double(index))
            series += [
                PlotSeries(
                    index == 0 ? .file(data.name) : .sameFile, block: index, columns: [.column(1), .column(2)],
                    style: PlotStyle(
                        .linespoints, [.width(width), .pointType(GnuplotScript.pointType(index)), .pointSize(size)],
                        color: color),
                    title: .literal("\(pool.rawValue): most tasks in flight")),
                PlotSeries(
                    .sameFile, block: index, columns: [.column(1), .column(3)],
                    style: PlotStyle(
                        .linespoints,
                        [.width(1.5), .dash(2), .pointType(GnuplotScript.pointType(index) - 1), .pointSize(1.2)],
                        color: color),
                    title: .literal("\(pool.rawValue): OS threads that ran tasks")),
            ]
        }
        return PlotSpec(
            name: "concurrency", caption: caption, headline: analysis.run.headline,
            note:
                "For each pool kind, the most tasks seen executing at one instant (solid) and the distinct OS threads that ran them (dashed), against the pool size asked for. A pool below the grey diagonal never reached its N, so N does not size it.",
            dataNote: "Data: concurrency.dat (one block per pool kind).", settings: settings, series: series,
            data: [data])
    }
}
