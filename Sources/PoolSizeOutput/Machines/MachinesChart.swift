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
        let machines = comparison.machines.filter { $0.points.count >= 1 }
        guard !machines.isEmpty, machines.contains(where: { $0.points.count >= 2 }) else { return nil }
        let sizes = machines.flatMap { $0.points.map(\.size) }
        let headline = "\(comparison.workloads.joined(separator: ", ")) workload, \(machines.count) machines"

        // Machine labels are host names from someone else's machine.json: they enter the data
        // file only as comments and the script only through GnuplotScript.quote.
        var data = [
            "mean throughput by pool size, one block per machine (gnuplot: index 0, 1, ...)",
            "pool_size  mean_per_s",
        ].map { GnuplotScript.comment($0) + "\n" }.joined()
        for (index, machine) in machines.enumerated() {
            if index > 0 { data += "\n\n" }
            data += GnuplotScript.comment("index \(index): \(machine.label)") + "\n"
            data += GnuplotScript.rows(machine.points.map { [String($0.size), GnuplotScript.number($0.throughput)] })
        }
        var recommended = [
            GnuplotScript.comment("recommended size and its mean throughput, one row per machine that has both"),
            GnuplotScript.comment("pool_size  mean_per_s"),
        ]
        .map { $0 + "\n" }.joined()
        let marked = machines.compactMap { m in
            m.recommended.flatMap { r in m.throughputAtRecommendation.map { (r, $0) } }
        }
        recommended += GnuplotScript.rows(marked.map { [String($0.0), GnuplotScript.number($0.1)] })

        var body = [
            GnuplotScript.title(caption, headline),
            "set xlabel 'pool size N (queues)'",
            "set ylabel 'throughput (tasks/s), mean of the repetitions'",
            "set grid",
            "set xrange [0:\(GnuplotScript.axisMaximum(sizes))]",
            "set yrange [0:*]",
            "set offsets 0, 0, graph 0.08, 0",
        ]
        var plots = machines.enumerated().map { index, machine in
            let cores = machine.cores.map { ", \($0) cores" } ?? ""
            return
                "dir.'\(name).dat' index \(index) using 1:2 with linespoints lw 2 pt \(GnuplotScript.pointType(index)) ps 1 lc rgb '\(GnuplotScript.color(index))' title \(GnuplotScript.quote(machine.label + cores)) noenhanced"
        }
        if !marked.isEmpty {
            plots.append(
                "dir.'\(name)-recommended.dat' using 1:2 with points pt 7 ps 2.2 lc rgb '\(GnuplotScript.recommendedColor)' title 'recommended size'"
            )
        }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))

        let script = GnuplotScript.wrap(
            name: name, caption: caption, headline: headline,
            dataComment: ["data: \(name).dat (one block per machine), \(name)-recommended.dat"],
            body: body, legendEntries: GnuplotScript.legendEntries(plots))
        let note =
            "One line per machine: the mean throughput of its recommended pool / qos / primitive at each measured size; the red dots are the sizes each machine's sweep recommends."
        return Chart(
            name: name, caption: caption, note: note, script: script,
            dataFiles: [
                DataFile(name: name + ".dat", text: data),
                DataFile(name: name + "-recommended.dat", text: recommended),
            ])
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
