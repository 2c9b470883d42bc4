import PoolSizeModel

/// The table `poolsize calibrate` prints: each operation's median over rounds, its range, and
/// the reference values with the ratio to Apple's. Pure: result in, text out.
package enum CalibrationTable {
    package static let header = ["operation", "measured", "min–max", "Apple", "ratio", "earlier here"]

    package static func render(_ result: CalibrationResult) -> String {
        var out =
            "calibrate: median of \(result.rounds) rounds per operation (after 1 warm-up round); ratio = measured / Apple\n\n"
        let rows = [header] + result.measurements.map(row)
        out += TextTable.render(rows, leftAligned: [0])
        out += "\nApple: \(CalibrationResult.appleSource)\n"
        out += "earlier here: \(CalibrationResult.earlierSource)\n"
        for note in result.notes { out += "note: \(note)\n" }
        return out
    }

    static func row(_ m: CalibrationMeasurement) -> [String] {
        let dash = "—"
        let spread: String
        if let s = m.summary, s.count > 1 {
            spread = CalibrationValueFormat.range(s.minimum, s.maximum, m.unit)
        } else {
            spread = dash
        }
        return [
            m.operation,
            m.median.isFinite ? CalibrationValueFormat.value(m.median, m.unit) : dash,
            spread,
            m.reference.map { CalibrationValueFormat.value($0, m.unit) } ?? dash,
            m.ratio.flatMap { $0.isFinite ? CalibrationValueFormat.ratio($0) : nil } ?? dash,
            m.earlierReference.map { CalibrationValueFormat.value($0, m.unit) } ?? dash,
        ]
    }
}
