/// CPU utilization (left axis) and context switches per second (right axis) vs pool size.
/// Utilization reaching 100% is where the formula expects the knee; context switches show the
/// cost of the threads beyond it.
package enum UtilizationChart {
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        guard let primary = analysis.primary else { return nil }
        let curves = Array(analysis.curves.prefix(ThroughputChart.maximumSecondaryCurves))
        let caption = "CPU utilization and context switches vs pool size"
        let sizes = analysis.summaries.map(\.poolSize)
        let switches = primary.points.contains {
            $0.voluntaryContextSwitchesPerSecond > 0 || $0.involuntaryContextSwitchesPerSecond > 0
        }
        let top = max(
            110,
            ((analysis.summaries.map(\.utilization).filter(\.isFinite).max() ?? 0) * 100 * 1.1 / 10).rounded(.up) * 10)

        var data = "# utilization and context switches by pool size, one block per pool / qos / primitive\n"
        data += "# pool_size  utilization_pct  voluntary_ctx_switches_per_s  involuntary_ctx_switches_per_s  threads\n"
        for (index, curve) in curves.enumerated() {
            if index > 0 { data += "\n\n" }
            data += GnuplotScript.comment("index \(index): \(curve.combination.label)") + "\n"
            data += GnuplotScript.rows(
                curve.points.map { p in
                    [
                        String(p.poolSize), GnuplotScript.number(p.utilization * 100),
                        GnuplotScript.number(p.voluntaryContextSwitchesPerSecond),
                        GnuplotScript.number(p.involuntaryContextSwitchesPerSecond), String(p.threads),
                    ]
                })
        }

        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'pool size N (queues)'",
            "set ylabel 'CPU utilization (% of \(analysis.run.cores.map(String.init) ?? "all") cores)'",
            "set grid",
            "set xrange [0:\(GnuplotScript.axisMaximum(sizes))]",
            "set yrange [0:\(GnuplotScript.number(top))]",
            "set arrow 10 from graph 0, first 100 to graph 1, first 100 nohead dt 2 lc rgb '\(GnuplotScript.grey)'",
        ]
        if switches {
            body += [
                "set y2label 'context switches (per s)'",
                "set y2range [0:*]",
                "set y2tics",
                "set ytics nomirror",
            ]
        }
        if let r = primary.recommendation {
            body += GnuplotScript.verticalMarker(
                tag: 1, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                color: GnuplotScript.recommendedColor, dash: 3)
        }
        var plots: [String] = []
        for (index, curve) in curves.enumerated() {
            let title = curves.count == 1 ? "CPU utilization" : "utilization " + analysis.legend(curve.combination)
            plots.append(
                "\(index == 0 ? "dir.'utilization.dat'" : "''") index \(index) using 1:2 axes x1y1 with linespoints lw 2 pt \(GnuplotScript.pointType(index)) lc rgb '\(GnuplotScript.color(index))' title \(GnuplotScript.quote(title)) noenhanced"
            )
        }
        if switches {
            let suffix = curves.count == 1 ? "" : " (" + analysis.legend(primary.combination) + ")"
            plots.append(
                "'' index 0 using 1:3 axes x1y2 with linespoints lw 1.5 dt 3 pt 4 lc rgb '#555555' title \(GnuplotScript.quote("voluntary context switches/s" + suffix)) noenhanced"
            )
            plots.append(
                "'' index 0 using 1:4 axes x1y2 with linespoints lw 1.5 dt 4 pt 8 lc rgb '#111111' title \(GnuplotScript.quote("involuntary context switches/s" + suffix)) noenhanced"
            )
        }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))
        var note = "Process CPU time over the measurement window × cores (the dashed line is every core busy)."
        note +=
            switches
            ? " Context switches per second are on the right axis: voluntary ones are tasks blocking, involuntary ones are threads preempted for lack of a CPU."
            : " This run recorded no context switches, so only utilization is shown."
        return Chart(
            name: "utilization", caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: "utilization", caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: utilization.dat (one block per pool / qos / primitive)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: "utilization.dat", text: data)])
    }
}
