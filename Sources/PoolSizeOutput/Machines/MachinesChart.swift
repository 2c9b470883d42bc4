import PoolSizeModel

/// The multi-machine throughput chart: one line per machine (its recommended combination), the
/// recommended size of each marked on its own line. As a gnuplot script with its data, and as a
/// Mermaid `xychart-beta` for GitHub's Markdown and job summaries.
package enum MachinesChart {
    /// File stem: machines.gp, machines.dat, machines.svg, machines.png.
    package static let name = "machines"
    package static let caption = "Throughput vs pool size, per machine"

    /// The gnuplot chart; nil when no machine has two measured sizes.
    package static func chart(_ comparison: MachineComparison) -> Chart? {
        plot(comparison).map(GnuplotScript.render)
    }

    /// The chart's description, before rendering.
    package static func plot(_ comparison: MachineComparison) -> PlotSpec? {
        let machines = comparison.machines.filter { $0.points.count >= 1 }
        guard !machines.isEmpty, machines.contains(where: { $0.points.count >= 2 }) else { return nil }
        let sizes = machines.flatMap { $0.points.map(\.size) }
        let headline = "\(comparison.workloads.joined(separator: ", ")) workload, \(machines.count) machines"

        // Machine labels are host names from someone else's machine.json: they enter the data
        // file only as comments, and the script only as titles, which GnuplotScript quotes.
        let data = PlotData(
            name: name + ".dat",
            header: [
                "mean throughput by pool size, one block per machine (gnuplot: index 0, 1, ...)",
                "pool_size  mean_per_s",
            ],
            blocks: PlotData.indexed(machines, label: \.label) { machine in
                machine.points.map { [.integer($0.size), .number($0.throughput)] }
            })
        let marked = machines.compactMap { m in
            m.recommended.flatMap { r in m.throughputAtRecommendation.map { (r, $0) } }
        }
        let recommended = PlotData(
            name: name + "-recommended.dat",
            header: [
                "recommended size and its mean throughput, one row per machine that has both", "pool_size  mean_per_s",
            ],
            blocks: [PlotData.Block(rows: marked.map { [.integer($0.0), .number($0.1)] })])

        let settings: [PlotSetting] =
            PlotSetting.sizeAxes(
                x: "pool size N (queues)", y: "throughput (tasks/s), mean of the repetitions", sizes: sizes)
            + [
                .headroom(top: 0.08)
            ]
        var series = machines.enumerated().map { index, machine in
            PlotSeries(
                .file(data.name), block: index, columns: [.column(1), .column(2)],
                style: PlotStyle(
                    .linespoints, [.width(2), .pointType(GnuplotScript.pointType(index)), .pointSize(1)],
                    color: GnuplotScript.color(index)),
                title: .literal(machine.label + (machine.cores.map { ", \($0) cores" } ?? "")))
        }
        if !marked.isEmpty {
            series.append(
                PlotSeries(
                    .file(recommended.name), columns: [.column(1), .column(2)],
                    style: PlotStyle(.points, [.pointType(7), .pointSize(2.2)], color: GnuplotScript.recommendedColor),
                    title: .enhanced("recommended size")))
        }
        let note =
            "One line per machine: the mean throughput of its recommended pool / qos / primitive at each measured size; the red dots are the sizes each machine's sweep recommends."
        return PlotSpec(
            name: name, caption: caption, headline: headline, note: note,
            dataNote: "data: \(name).dat (one block per machine), \(name)-recommended.dat", settings: settings,
            series: series, data: [data, recommended])
    }

    /// One `line` per machine over the union of measured sizes; numbers only (Mermaid has no
    /// legend and no escaping to trust), so the report names the lines in order beside it. A
    /// machine not measured at a size shows 0 there, because a line needs a value per category.
    package static func mermaid(_ comparison: MachineComparison) -> String? {
        let sizes = Array(Set(comparison.machines.flatMap { $0.points.map(\.size) })).sorted()
        guard sizes.count >= 2 else { return nil }
        let peak = comparison.machines.flatMap { $0.points.map(\.throughput) }.filter(\.isFinite).max() ?? 0
        var lines = [
            "xychart-beta",
            "    title \"Throughput (tasks/s) vs pool size, one line per machine\"",
            "    x-axis \"pool size N (queues)\" [\(sizes.map(String.init).joined(separator: ", "))]",
            "    y-axis \"tasks/s\" 0 --> \(String(format: "%.0f", max(1, (peak * 1.1).rounded(.up))))",
        ]
        for machine in comparison.machines {
            let values = sizes.map { size in
                machine.points.first { $0.size == size }.map { MermaidChart.value($0.throughput) } ?? "0"
            }
            lines.append("    line [\(values.joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n")
    }
}
