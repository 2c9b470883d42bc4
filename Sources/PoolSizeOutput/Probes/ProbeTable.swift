import PoolSizeModel

/// The report `poolsize probe` prints: per probe the verdict, the claim, expected vs observed
/// and the one-line reason, then a tally. Pure: report in, text out.
package enum ProbeTable {
    package static func render(_ report: ProbeReport) -> String {
        let width = Verdict.allCases.map { $0.rawValue.count }.max()! + 2
        let indent = String(repeating: " ", count: width + 1)
        var out = ""
        for result in report.results {
            let tag = "[\(result.verdict.rawValue)]"
            let time = result.elapsedSeconds.map { " (\(CalibrationValueFormat.digits($0)) s)" } ?? ""
            out +=
                tag + String(repeating: " ", count: width - tag.count + 1)
                + "\(result.name.rawValue): \(result.claim)\(time)\n"
            out += indent + "expected: \(result.expected)\n"
            out += indent + "observed: \(result.observed)\n"
            out += indent + "why: \(result.explanation)\n\n"
        }
        out += "\(report.results.count) probe\(report.results.count == 1 ? "" : "s"): "
        out += report.tally.map { "\($0.count) \($0.verdict.rawValue)" }.joined(separator: ", ") + "\n"
        return out
    }
}
