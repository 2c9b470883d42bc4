import PoolSizeAnalysis
import PoolSizeModel

/// An adaptive pool's size (steps, left axis) and throughput (right axis) over its trial, one
/// colour per maximum, with the fixed pool's knee as a dashed line: how fast it got there and
/// whether it stayed.
package enum AdaptiveChart: RunChart {
    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        let shown = Array(analysis.selfSized.filter { !$0.steps.isEmpty }.prefix(GnuplotScript.palette.count))
        guard !shown.isEmpty else { return nil }
        let caption = "Adaptive pool: size and throughput over time"
        let data = PlotData(
            name: "adaptive.dat",
            header: [
                "the trial with the median throughput at each maximum, one block each",
                "seconds  size  throughput_per_s",
            ],
            blocks: PlotData.indexed(shown, label: { "\($0.combination.label), at most \($0.maximum)" }) { summary in
                summary.steps.map { step in
                    [.number(step.seconds), .integer(step.size), .number(step.throughputPerSecond)]
                }
            })
        var settings: [PlotSetting] = [
            .label(.x, "seconds since the pool started"),
            .label(.y, "queues"),
            .label(.y2, "throughput (tasks/s)"),
            .grid(.both),
            .range(.y, low: 0, high: nil),
            .range(.y2, low: 0, high: nil),
            .secondAxisTics,
        ]
        if let knee = shown.compactMap(\.reference).first {
            settings.append(
                .horizontalMarker(
                    tag: 10, y: Double(knee.kneeSize), text: "fixed knee \(knee.kneeSize)",
                    color: GnuplotScript.kneeColor, dash: 2, width: 2))
        }
        var series: [PlotSeries] = []
        for (index, summary) in shown.enumerated() {
            let color = GnuplotScript.color(index)
            let suffix = shown.count == 1 ? "" : " (at most \(summary.maximum))"
            series += [
                PlotSeries(
                    index == 0 ? .file(data.name) : .sameFile, block: index, columns: [.column(1), .column(2)],
                    axis: .y, style: PlotStyle(.steps, [.width(2)], color: color), title: .literal("queues" + suffix)),
                PlotSeries(
                    .sameFile, block: index, columns: [.column(1), .column(3)], axis: .y2,
                    style: PlotStyle(.lines, [.width(1), .dash(3)], color: color),
                    title: .literal("tasks/s" + suffix)),
            ]
        }
        let note =
            "The queues the adaptive pool ran (solid steps, left axis) and the tasks per second of each of its"
            + " ~100 ms windows (dotted, right axis), over the trial whose throughput was the median; the dashed"
            + " line is the knee of the fixed pool measured beside it."
        return PlotSpec(
            name: "adaptive", caption: caption, headline: analysis.run.headline, note: note,
            dataNote: "Data: adaptive.dat (one block per maximum).", settings: settings, series: series,
            data: [data])
    }
}
