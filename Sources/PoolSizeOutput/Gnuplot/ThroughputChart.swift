import PoolSizeModel
import PoolSizeStats

/// Throughput vs pool size: the mean of the repetitions with bars from their minimum to their
/// maximum, the formula's prediction (the ideal closed loop min(N/(W+C), U·cores/C), whose knee
/// is the formula's N), the knee and the recommendation, and the USL curve when it was fitted.
package enum ThroughputChart: RunChart {
    /// Curves drawn (the recommended combination first); more would make the legend unreadable.
    package static let maximumCurves = 8
    /// Curves on the charts that draw two lines per curve (latency, utilization).
    package static let maximumSecondaryCurves = 4

    package static func plot(_ analysis: RunAnalysis) -> PlotSpec? {
        guard let primary = analysis.primary else { return nil }
        let curves = Array(analysis.curves.prefix(maximumCurves))
        let sizes = analysis.summaries.map(\.poolSize)
        let counts = RepetitionCounts(asked: analysis.run.plan?.repetitions, summaries: analysis.summaries)
        let caption = "Throughput vs pool size"

        let data = PlotData(
            name: "throughput.dat",
            header: [
                "throughput by pool size, one block per pool / qos / primitive (gnuplot: index 0, 1, ...)",
                "pool_size  mean_per_s  stddev_per_s  min_per_s  max_per_s  repetitions",
            ],
            blocks: PlotData.indexed(curves, label: \.combination.label) { curve in
                curve.points.map { p in
                    [.integer(p.poolSize)]
                        + [
                            p.throughput.mean, p.throughput.standardDeviation, p.throughput.minimum,
                            p.throughput.maximum,
                        ].map(PlotCell.number)
                        + [.integer(p.throughput.count)]
                }
            })

        let spread = (counts.sizesByCount.keys.max() ?? 0) > 1
        var settings: [PlotSetting] =
            PlotSetting.sizeAxes(
                x: "pool size N (queues)",
                y: spread ? "throughput (tasks/s): mean, bars min–max \(counts.chartPhrase)" : "throughput (tasks/s)",
                sizes: sizes)
            + [
                .headroom(top: 0.08),
                .samples(400),
            ]
        var series = curves.enumerated().map { index, curve in
            let title =
                curves.count == 1
                ? "measured" : analysis.legend(curve.combination) + (index == 0 ? " (recommended)" : "")
            return PlotSeries(
                .file(data.name), block: index, columns: [.column(1), .column(2), .column(4), .column(5)],
                style: PlotStyle(
                    .yerrorlines,
                    [.width(index == 0 ? 2.5 : 1.5), .pointType(GnuplotScript.pointType(index)), .pointSize(1)],
                    color: GnuplotScript.color(index)),
                title: .literal(title))
        }

        let recommendation = primary.recommendation
        if let r = recommendation, let c = analysis.cpuMicrosecondsPerTask, let w = analysis.waitMicrosecondsPerTask,
            c > 0
        {
            settings += [
                .spacer,
                .remark(
                    "The formula's prediction: the ideal closed loop (docs/platform.md), W and C measured with one worker."
                ),
                .variable("W", w, note: "µs waiting per task"),
                .variable("C", c, note: "µs on CPU per task"),
                .variable("cores", Double(r.cores), note: nil),
                .variable("U", r.targetUtilization, note: nil),
                .function(
                    "formula", parameter: "n", body: "1e6 * (n / (W + C) < U * cores / C ? n / (W + C) : U * cores / C)"
                ),
            ]
            series.append(
                PlotSeries(
                    .function("formula"), style: PlotStyle(.lines, [.dash(2), .width(2)], color: GnuplotScript.grey),
                    title: .enhanced("formula: min(N/(W+C), U·cores/C), W/C \(UnitFormat.significant(r.waitCPURatio))"))
            )
        }
        if let usl = primary.usl {
            settings += [
                .spacer,
                .remark("Universal Scalability Law fit (Gunther): X(N) = λN / (1 + σ(N − 1) + κN(N − 1))."),
                .variable("sigma", usl.sigma, note: nil),
                .variable("kappa", usl.kappa, note: nil),
                .variable("lambda", usl.lambda, note: nil),
                .function("usl", parameter: "n", body: "lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))"),
            ]
            var text = "USL fit: σ \(UnitFormat.coefficient(usl.sigma)), κ \(UnitFormat.coefficient(usl.kappa))"
            text += ", R² \(UnitFormat.significant(usl.rSquared))"
            series.append(
                PlotSeries(
                    .function("usl", from: 1, to: GnuplotScript.axisMaximum(sizes)),
                    style: PlotStyle(.lines, [.width(2)], color: GnuplotScript.uslColor), title: .enhanced(text)))
        }
        if let r = recommendation, !analysis.hasWaitCPU {
            // No W/C, no formula to mark: the knee and the recommendation only.
            settings.append(.spacer)
            if let knee = r.kneeQueueCount {
                settings.append(
                    .verticalMarker(
                        tag: 2, x: Double(knee), text: "measured knee \(knee)", color: GnuplotScript.kneeColor, dash: 3)
                )
            }
        } else if let r = recommendation {
            settings.append(.spacer)
            let formulaText = "formula N = \(UnitFormat.significant(r.formulaQueueCountExact))"
            // Two rotated labels closer than ~3% of the axis would print over each other.
            if let knee = r.kneeQueueCount,
                abs(r.formulaQueueCountExact - Double(knee)) < 0.03 * Double(sizes.max() ?? 1)
            {
                settings.append(
                    .verticalMarker(
                        tag: 2, x: Double(knee), text: "measured knee \(knee) ≈ \(formulaText)",
                        color: GnuplotScript.kneeColor, dash: 3))
            } else {
                settings.append(
                    .verticalMarker(
                        tag: 1, x: r.formulaQueueCountExact, text: formulaText, color: GnuplotScript.grey, dash: 2))
                if let knee = r.kneeQueueCount {
                    settings.append(
                        .verticalMarker(
                            tag: 2, x: Double(knee), text: "measured knee \(knee)", color: GnuplotScript.kneeColor,
                            dash: 3))
                }
            }
            let y =
                primary.point(nearest: r.recommendedQueueCount).map {
                    $0.poolSize == r.recommendedQueueCount ? $0.throughput.mean : nil
                } ?? nil
            let text = "recommended \(r.recommendedQueueCount)"
            if let y {
                settings.append(
                    .pointMarker(
                        tag: 3, x: Double(r.recommendedQueueCount), y: y, text: text,
                        color: GnuplotScript.recommendedColor))
            } else {
                settings.append(
                    .verticalMarker(
                        tag: 3, x: Double(r.recommendedQueueCount), text: text, color: GnuplotScript.recommendedColor,
                        dash: 1))
            }
        }

        var note = "Mean throughput of the repetitions at each pool size"
        if !spread {
            note += " (one repetition: no spread to show)."
        } else if counts.uniform != nil {
            note += ", with bars from the slowest to the fastest repetition."
        } else {
            note +=
                ", with bars from the slowest to the fastest repetition where a size has several (\(counts.phrase))."
        }
        if analysis.hasWaitCPU {
            note +=
                " The dashed grey curve is what the formula predicts for an ideal closed loop; its corner is the formula's N."
        }
        if primary.usl != nil { note += " The purple curve is the USL fit." }
        return PlotSpec(
            name: "throughput", caption: caption, headline: analysis.run.headline, note: note,
            dataNote: "Data: throughput.dat (one block per pool / qos / primitive).", settings: settings,
            series: series, data: [data])
    }
}
