import PoolSizeAnalysis
import PoolSizeModel

/// An adaptive pool's size (steps, left axis) and throughput (right axis) over its trial, one
/// colour per maximum, with the fixed pool's knee as a dashed line: how fast it got there and
/// whether it stayed.
package enum AdaptiveChart {
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        let shown = Array(analysis.adaptive.filter { !$0.steps.isEmpty }.prefix(GnuplotScript.palette.count))
        guard !shown.isEmpty else { return nil }
        let caption = "Adaptive pool: size and throughput over time"
        var data = "# the trial with the median throughput at each maximum, one block each\n"
        data += "# seconds  size  throughput_per_s\n"
        for (index, summary) in shown.enumerated() {
            if index > 0 { data += "\n\n" }
            data +=
                GnuplotScript.comment("index \(index): \(summary.combination.label), at most \(summary.maximum)") + "\n"
            data += GnuplotScript.rows(
                summary.steps.map { step in
                    [
                        GnuplotScript.number(step.seconds), String(step.size),
                        GnuplotScript.number(step.throughputPerSecond),
                    ]
                })
        }
        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'seconds since the pool started'",
            "set ylabel 'queues'",
            "set y2label 'throughput (tasks/s)'",
            "set grid",
            "set yrange [0:*]",
            "set y2range [0:*]",
            "set y2tics",
            "set ytics nomirror",
        ]
        if let knee = shown.compactMap(\.reference).first {
            let y = knee.kneeSize, green = GnuplotScript.kneeColor
            body.append(
                "set arrow 10 from graph 0, first \(y) to graph 1, first \(y) nohead dt 2 lw 2 lc rgb '\(green)'")
            body.append(
                "set label 10 \(GnuplotScript.quote("fixed knee \(y)")) at graph 0.02, first \(y) offset 0,0.7"
                    + " textcolor rgb '\(green)' noenhanced")
        }
        var plots: [String] = []
        for (index, summary) in shown.enumerated() {
            let source = index == 0 ? "dir.'adaptive.dat'" : "''"
            let color = GnuplotScript.color(index)
            let suffix = shown.count == 1 ? "" : " (at most \(summary.maximum))"
            let queues = GnuplotScript.quote("queues" + suffix), tasks = GnuplotScript.quote("tasks/s" + suffix)
            plots.append(
                "\(source) index \(index) using 1:2 axes x1y1 with steps lw 2 lc rgb '\(color)'"
                    + " title \(queues) noenhanced")
            plots.append(
                "'' index \(index) using 1:3 axes x1y2 with lines lw 1 dt 3 lc rgb '\(color)'"
                    + " title \(tasks) noenhanced")
        }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))
        let note =
            "The queues the adaptive pool ran (solid steps, left axis) and the tasks per second of each of its"
            + " ~100 ms windows (dotted, right axis), over the trial whose throughput was the median; the dashed"
            + " line is the knee of the fixed pool measured beside it."
        return Chart(
            name: "adaptive", caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: "adaptive", caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: adaptive.dat (one block per maximum)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: "adaptive.dat", text: data)])
    }
}
