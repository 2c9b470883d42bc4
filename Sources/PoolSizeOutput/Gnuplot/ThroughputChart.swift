import PoolSizeModel
import PoolSizeStats

/// Throughput vs pool size: the mean of the repetitions with bars from their minimum to their
/// maximum, the formula's prediction (the ideal closed loop min(N/(W+C), U·cores/C), whose knee
/// is the formula's N), the knee and the recommendation, and the USL curve when it was fitted.
package enum ThroughputChart {
    /// Curves drawn (the recommended combination first); more would make the legend unreadable.
    package static let maximumCurves = 8
    /// Curves on the charts that draw two lines per curve (latency, utilization).
    package static let maximumSecondaryCurves = 4

    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        guard let primary = analysis.primary else { return nil }
        let curves = Array(analysis.curves.prefix(maximumCurves))
        let sizes = analysis.summaries.map(\.poolSize)
        let counts = RepetitionCounts(asked: analysis.run.plan?.repetitions, summaries: analysis.summaries)
        let caption = "Throughput vs pool size"

        var data = [
            "throughput by pool size, one block per pool / qos / primitive (gnuplot: index 0, 1, ...)",
            "pool_size  mean_per_s  stddev_per_s  min_per_s  max_per_s  repetitions",
        ].map { "# " + $0 + "\n" }.joined()
        for (index, curve) in curves.enumerated() {
            if index > 0 { data += "\n\n" }
            data += GnuplotScript.comment("index \(index): \(curve.combination.label)") + "\n"
            data += GnuplotScript.rows(
                curve.points.map { p in
                    [String(p.poolSize)]
                        + [
                            p.throughput.mean, p.throughput.standardDeviation, p.throughput.minimum,
                            p.throughput.maximum,
                        ].map(GnuplotScript.number)
                        + [String(p.throughput.count)]
                })
        }

        var body = [
            GnuplotScript.title(caption, analysis.run.headline),
            "set xlabel 'pool size N (queues)'",
            "set ylabel \(GnuplotScript.quote((counts.sizesByCount.keys.max() ?? 0) > 1 ? "throughput (tasks/s): mean, bars min–max \(counts.chartPhrase)" : "throughput (tasks/s)"))",
            "set grid",
            "set xrange [0:\(GnuplotScript.axisMaximum(sizes))]",
            "set yrange [0:*]",
            "set offsets 0, 0, graph 0.08, 0  # headroom: a plateau never sits on the border",
            "set samples 400",
        ]
        var plots: [String] = []
        for (index, curve) in curves.enumerated() {
            let title =
                curves.count == 1
                ? "measured" : analysis.legend(curve.combination) + (index == 0 ? " (recommended)" : "")
            let width = index == 0 ? 2.5 : 1.5
            plots.append(
                "dir.'throughput.dat' index \(index) using 1:2:4:5 with yerrorlines lw \(GnuplotScript.number(width)) pt \(GnuplotScript.pointType(index)) ps 1 lc rgb '\(GnuplotScript.color(index))' title \(GnuplotScript.quote(title)) noenhanced"
            )
        }

        let recommendation = primary.recommendation
        if let r = recommendation, let c = analysis.cpuMicrosecondsPerTask, let w = analysis.waitMicrosecondsPerTask,
            c > 0
        {
            body += [
                "",
                "# The formula's prediction: the ideal closed loop (docs/platform.md), W and C measured with one worker.",
                "W = \(GnuplotScript.real(w))  # µs waiting per task",
                "C = \(GnuplotScript.real(c))  # µs on CPU per task",
                "cores = \(GnuplotScript.real(Double(r.cores)))",
                "U = \(GnuplotScript.real(r.targetUtilization))",
                "formula(n) = 1e6 * (n / (W + C) < U * cores / C ? n / (W + C) : U * cores / C)",
            ]
            plots.append(
                "formula(x) with lines dt 2 lw 2 lc rgb '\(GnuplotScript.grey)' title \(GnuplotScript.quote("formula: min(N/(W+C), U·cores/C), W/C \(UnitFormat.significant(r.waitCPURatio))"))"
            )
        }
        if let usl = primary.usl {
            body += [
                "",
                "# Universal Scalability Law fit (Gunther): X(N) = λN / (1 + σ(N − 1) + κN(N − 1)).",
                "sigma = \(GnuplotScript.real(usl.sigma))",
                "kappa = \(GnuplotScript.real(usl.kappa))",
                "lambda = \(GnuplotScript.real(usl.lambda))",
                "usl(n) = lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))",
            ]
            var text = "USL fit: σ \(UnitFormat.coefficient(usl.sigma)), κ \(UnitFormat.coefficient(usl.kappa))"
            text += ", R² \(UnitFormat.significant(usl.rSquared))"
            plots.append(
                "[1:\(GnuplotScript.axisMaximum(sizes))] usl(x) with lines lw 2 lc rgb '\(GnuplotScript.uslColor)' title \(GnuplotScript.quote(text))"
            )
        }
        if let r = recommendation {
            body.append("")
            let formulaText = "formula N = \(UnitFormat.significant(r.formulaQueueCountExact))"
            // Two rotated labels closer than ~3% of the axis would print over each other.
            if abs(r.formulaQueueCountExact - Double(r.kneeQueueCount)) < 0.03 * Double(sizes.max() ?? 1) {
                body += GnuplotScript.verticalMarker(
                    tag: 2, x: Double(r.kneeQueueCount), text: "measured knee \(r.kneeQueueCount) ≈ \(formulaText)",
                    color: GnuplotScript.kneeColor, dash: 3)
            } else {
                body += GnuplotScript.verticalMarker(
                    tag: 1, x: r.formulaQueueCountExact, text: formulaText, color: GnuplotScript.grey, dash: 2)
                body += GnuplotScript.verticalMarker(
                    tag: 2, x: Double(r.kneeQueueCount), text: "measured knee \(r.kneeQueueCount)",
                    color: GnuplotScript.kneeColor, dash: 3)
            }
            let y =
                primary.point(nearest: r.recommendedQueueCount).map {
                    $0.poolSize == r.recommendedQueueCount ? $0.throughput.mean : nil
                } ?? nil
            if let y {
                body.append(
                    "set label 3 \(GnuplotScript.quote("recommended \(r.recommendedQueueCount)")) at \(r.recommendedQueueCount), \(GnuplotScript.number(y)) point pt 7 ps 2.2 lc rgb '\(GnuplotScript.recommendedColor)' offset 1.2,-1.2 textcolor rgb '\(GnuplotScript.recommendedColor)' front"
                )
            } else {
                body += GnuplotScript.verticalMarker(
                    tag: 3, x: Double(r.recommendedQueueCount), text: "recommended \(r.recommendedQueueCount)",
                    color: GnuplotScript.recommendedColor, dash: 1)
            }
        }
        body += GnuplotScript.key(entries: GnuplotScript.legendEntries(plots))
        body.append("")
        body.append("plot " + plots.joined(separator: ", \\\n     "))

        var note = "Mean throughput of the repetitions at each pool size"
        if (counts.sizesByCount.keys.max() ?? 0) <= 1 {
            note += " (one repetition: no spread to show)."
        } else if counts.uniform != nil {
            note += ", with bars from the slowest to the fastest repetition."
        } else {
            note +=
                ", with bars from the slowest to the fastest repetition where a size has several (\(counts.phrase))."
        }
        note +=
            " The dashed grey curve is what the formula predicts for an ideal closed loop; its corner is the formula's N."
        if primary.usl != nil { note += " The purple curve is the USL fit." }
        return Chart(
            name: "throughput", caption: caption, note: note,
            script: GnuplotScript.wrap(
                name: "throughput", caption: caption, headline: analysis.run.headline,
                dataComment: ["Data: throughput.dat (one block per pool / qos / primitive)."], body: body,
                legendEntries: GnuplotScript.legendEntries(plots)),
            dataFiles: [DataFile(name: "throughput.dat", text: data)])
    }
}
