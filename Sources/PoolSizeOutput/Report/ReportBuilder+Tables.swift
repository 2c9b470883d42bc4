import PoolSizeModel

extension ReportBuilder {
    /// Curves with their own measurement table; past this many, only the recommended one is
    /// tabulated (summary.csv holds the rest).
    static let maximumTables = 6

    /// The Measurements heading and the curves that get a table each, for both loads: past
    /// `maximumTables` the recommended one only, and a line that says where the rest are.
    static func measurementsOpening(_ analysis: RunAnalysis) -> (
        blocks: [ReportDocument.Block], curves: [RunAnalysis.Curve]
    ) {
        var blocks: [ReportDocument.Block] = [.heading(level: 2, text: "Measurements")]
        let curves = analysis.curves.count > maximumTables ? Array(analysis.curves.prefix(1)) : analysis.curves
        if curves.count < analysis.curves.count {
            blocks.append(
                .paragraph(
                    "The recommended combination only; the other \(analysis.curves.count - 1) are in summary.csv and trials.csv."
                ))
        }
        return (blocks, curves)
    }

    /// One table per combination: the numbers behind the charts.
    static func measurements(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        let (opening, curves) = measurementsOpening(analysis)
        var blocks = opening
        let latency = analysis.summaries.contains { $0.latencyP50Microseconds > 0 }
        for curve in curves {
            if analysis.curves.count > 1 { blocks.append(.heading(level: 3, text: curve.combination.label)) }
            var header = ["N", "throughput/s", "± sd", "CV"]
            if latency { header += ["latency p50", "latency p99"] }
            // A load tool alone measured no CPU, threads or concurrency: its errors instead.
            let cpu = analysis.measuresTaskCPU
            header += cpu ? ["CPU util", "W/C", "in flight", "threads", ""] : ["errors", ""]
            let rows = curve.points.map { p -> [String] in
                var row = [
                    String(p.poolSize), UnitFormat.significant(p.throughput.mean),
                    p.throughput.count > 1 ? UnitFormat.significant(p.throughput.standardDeviation) : "–",
                    p.throughput.count > 1 ? UnitFormat.percentOneDecimal(p.throughput.coefficientOfVariation) : "–",
                ]
                // 0 is "not recorded" (a load tool that printed no p99, kept no count in flight).
                if latency {
                    row += [p.latencyP50Microseconds, p.latencyP99Microseconds].map {
                        $0 > 0 ? UnitFormat.duration(microseconds: $0) : "–"
                    }
                }
                row +=
                    cpu
                    ? [
                        UnitFormat.wholePercent(p.utilization), UnitFormat.significant(p.waitCPURatio),
                        p.peakConcurrency > 0 ? String(p.peakConcurrency) : "–", String(p.threads),
                        marks(p.poolSize, curve.recommendation),
                    ] : [String(p.errors), marks(p.poolSize, curve.recommendation)]
                return row
            }
            blocks.append(.table(header: header, rows: rows, numeric: header.map { !["", "N"].contains($0) }))
        }
        if let note = ServerWaitProse.note(analysis) { blocks.append(.paragraph(ReportInline.literal(note))) }
        return blocks
    }

    static func marks(_ size: Int, _ r: Recommendation?) -> String {
        guard let r else { return "" }
        var marks: [String] = []
        if size == r.recommendedQueueCount { marks.append("**recommended**") }
        if size == r.measuredKneeQueueCount && size != r.recommendedQueueCount { marks.append("knee") }
        if size == r.peakQueueCount { marks.append("peak") }
        return marks.joined(separator: ", ")
    }

    /// The USL coefficients with their standard errors, or why there are none.
    static func fits(_ analysis: RunAnalysis) -> [ReportDocument.Block] {
        var blocks: [ReportDocument.Block] = [
            .heading(level: 2, text: "Fit parameters"),
            .paragraph(
                "Universal Scalability Law (Gunther): X(N) = λN / (1 + σ(N − 1) + κN(N − 1)). σ is contention (the serialized share), κ coherency (crosstalk that makes throughput fall), λ the throughput of one queue; the peak is at N* = √((1 − σ)/κ). The formula assumes σ = κ = 0."
            ),
        ]
        var rows: [[String]] = []
        var refusals: [String] = []
        for curve in analysis.curves {
            if let u = curve.usl {
                func withError(_ value: Double, _ error: Double?, _ format: (Double) -> String) -> String {
                    error.map { "\(format(value)) ± \(format($0))" } ?? format(value)
                }
                rows.append([
                    curve.combination.label, withError(u.sigma, u.sigmaStandardError, UnitFormat.coefficient),
                    withError(u.kappa, u.kappaStandardError, UnitFormat.coefficient),
                    withError(u.lambda, u.lambdaStandardError, UnitFormat.significant),
                    UnitFormat.significant(u.rSquared),
                    u.peakConcurrency.map { UnitFormat.significant($0) } ?? "none (κ = 0)",
                ])
            } else {
                refusals.append(
                    "\(curve.combination.label): " + (curve.uslRefusal.map(ReportInline.literal) ?? "not fitted."))
            }
        }
        if !rows.isEmpty {
            blocks.append(
                .table(
                    header: ["combination", "σ", "κ", "λ (tasks/s)", "R²", "N*"], rows: rows,
                    numeric: [false, true, true, true, true, true]))
        }
        if !refusals.isEmpty {
            blocks.append(.paragraph(rows.isEmpty ? "No USL fit:" : "Not fitted:"))
            blocks.append(.bullets(refusals))
        }
        if let r = analysis.primary?.recommendation, let tolerance = r.curve?.tolerance {
            blocks.append(
                .paragraph(
                    "Knee rule: the smallest N whose mean throughput is within \(UnitFormat.wholePercent(tolerance)) of the peak (× U = \(UnitFormat.significant(r.targetUtilization))), or whose 95% interval reaches that threshold; or, when smaller, the smallest N past which no doubling of N raises throughput by \(UnitFormat.wholePercent(tolerance)) more than the repetitions' spread can explain (a slow creep toward a higher peak does not move the knee)."
                ))
        }
        return blocks
    }
}
