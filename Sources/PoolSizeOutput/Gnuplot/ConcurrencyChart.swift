import PoolSizeModel

/// Requested vs reached concurrency per pool kind: the most tasks seen executing at once and
/// the OS threads that ran them, against the diagonal "reached = requested". A pool kind below
/// the diagonal cannot be sized by N (docs/platform.md: the global queue stays near `cores` threads).
package enum ConcurrencyChart {
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        let pools = PoolKind.allCases.filter { kind in analysis.curves.contains { $0.combination.pool == kind } }
        guard !pools.isEmpty else { return nil }
        let caption = "Requested vs reached concurrency"
        let sizes = analysis.summaries.map(\.poolSize)

        var data =
            "# requested pool size vs reached concurrency, one block per pool kind (maxima over its tiers, primitives and repetitions)\n"
        data += "# pool_size  peak_in_flight  threads\n"
        for (index, pool) in pools.enumerated() {
            if index > 0 { data += "\n\n" }
            data += GnuplotScript.comment("index \(index): \(pool.rawValue)") + "\n"
            let points = Dictionary(grouping: analysis.summaries.filter { $0.combination.pool == pool }, by: \.poolSize)
            data += GnuplotScript.rows(
                points.keys.sorted().map { size in
                    [
                        String(size), String(points[size]!.map(\.peakConcurrency).max()!),
                        String(points[size]!.map(\.threads).max()!),
                    ]
                })
        }

        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'requested pool size N (queues)'",
            "set ylabel 'reached (tasks in flight, threads)'",
            "set grid",
            "set xrange [0:\(GnuplotScript.axisMaximum(sizes))]",
            "set yrange [0:*]",
            "set offsets 0, 0, graph 0.08, 0  # headroom: a plateau never sits on the border",
        ]
        var plots = ["x with lines dt 2 lw 1.5 lc rgb '\(GnuplotScript.grey)' title 'reached = requested'"]
        for (index, pool) in pools.enumerated() {
            let color = GnuplotScript.color(index)
            let file = index == 0 ? "dir.'concurrency.dat'" : "''"
            // Pool kinds that reach N draw the same line; each next one is thinner so all show.
            let width = GnuplotScript.number(max(1.5, 4.5 - 1.2 * Double(index)))
            plots.append(
                "\(file) index \(index) using 1:2 with linespoints lw \(width) pt \(GnuplotScript.pointType(index)) ps \(GnuplotScript.number(max(0.8, 1.6 - 0.3 * Double(index)))) lc rgb '\(color)' title \(GnuplotScript.quote("\(pool.rawValue): most tasks in flight")) noenhanced"
            )
            plots.append(
                "'' index \(index) using 1:3 with linespoints lw 1.5 dt 2 pt \(GnuplotScript.pointType(index) - 1) ps 1.2 lc rgb '\(color)' title \(GnuplotScript.quote("\(pool.rawValue): OS threads that ran tasks")) noenhanced"
            )
        }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))
        return Chart(
            name: "concurrency", caption: caption,
            note:
                "For each pool kind, the most tasks seen executing at one instant (solid) and the distinct OS threads that ran them (dashed), against the pool size asked for. A pool below the grey diagonal never reached its N, so N does not size it.",
            script: GnuplotScript.wrap(
                name: "concurrency", caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: concurrency.dat (one block per pool kind)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: "concurrency.dat", text: data)])
    }
}
