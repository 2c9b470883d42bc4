/// Task latency (submission to completion) p50 and p99 vs pool size, on a log scale: past the
/// knee extra queues add no throughput, and latency shows what they cost instead.
package enum LatencyChart {
    /// nil when the run recorded no latency (every percentile 0): a log axis of nothing would
    /// be an empty, broken chart.
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        let curves = Array(analysis.curves.prefix(ThroughputChart.maximumSecondaryCurves))
        guard
            curves.contains(where: {
                $0.points.contains { $0.latencyP50Microseconds > 0 || $0.latencyP99Microseconds > 0 }
            })
        else { return nil }
        let caption = "Latency p50 and p99 vs pool size"
        let sizes = analysis.summaries.map(\.poolSize)

        var data = "# task latency (submit to completion) by pool size, one block per pool / qos / primitive\n"
        data += "# pool_size  p50_ms  p99_ms   (means over repetitions; NaN: not recorded)\n"
        for (index, curve) in curves.enumerated() {
            if index > 0 { data += "\n\n" }
            data += GnuplotScript.comment("index \(index): \(curve.combination.label)") + "\n"
            data += GnuplotScript.rows(
                curve.points.map { p in
                    [
                        String(p.poolSize), milliseconds(p.latencyP50Microseconds),
                        milliseconds(p.latencyP99Microseconds),
                    ]
                })
        }

        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'pool size N (queues)'",
            "set ylabel 'latency (ms, log scale)'",
            "set logscale y",
            "set format y '%g'",
            "set grid",
            "set xrange [0:\(GnuplotScript.axisMaximum(sizes))]",
        ]
        // Within two decades gnuplot labels only the powers of ten; label every doubling instead.
        let values = curves.flatMap(\.points).flatMap { [$0.latencyP50Microseconds, $0.latencyP99Microseconds] }.filter
        { $0 > 0 }
        if let low = values.min(), let high = values.max(), high / low < 100 { body.append("set ytics 2") }
        if let r = analysis.primary?.recommendation {
            body += GnuplotScript.verticalMarker(
                tag: 1, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                color: GnuplotScript.recommendedColor, dash: 3)
        }
        var plots: [String] = []
        for (index, curve) in curves.enumerated() {
            let prefix = curves.count == 1 ? "" : analysis.legend(curve.combination) + " "
            let color = GnuplotScript.color(index)
            plots.append(
                "dir.'latency.dat' index \(index) using 1:2 with linespoints lw 2 pt \(GnuplotScript.pointType(index)) lc rgb '\(color)' title \(GnuplotScript.quote(prefix + "p50")) noenhanced"
            )
            plots.append(
                "'' index \(index) using 1:3 with linespoints lw 2 dt 2 pt \(GnuplotScript.pointType(index) - 1) lc rgb '\(color)' title \(GnuplotScript.quote(prefix + "p99")) noenhanced"
            )
        }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))
        return Chart(
            name: "latency", caption: caption,
            note:
                "Median (solid) and 99th-percentile (dashed) time from submitting a task to its completion, mean over the repetitions, on a log scale. Where throughput has flattened, more queues only lengthen the queue each task waits in.",
            script: GnuplotScript.wrap(
                name: "latency", caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: latency.dat (one block per pool / qos / primitive)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: "latency.dat", text: data)])
    }

    /// Milliseconds; a percentile of 0 was not recorded and is left out of a log axis.
    static func milliseconds(_ microseconds: Double) -> String {
        microseconds > 0 ? GnuplotScript.number(microseconds / 1000) : "NaN"
    }
}
