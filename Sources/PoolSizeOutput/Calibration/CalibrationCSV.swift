import PoolSizeModel

/// `calibrate-<timestamp>.csv`: one row per operation. Values are raw numbers in the row's
/// `unit` (`ns` or `bytes`): the operations mix times and sizes, so the unit is a column
/// rather than part of each value column's name. Empty cells mean "no such value".
package enum CalibrationCSV {
    package static let columns = [
        "operation_id", "operation", "unit", "rounds", "median", "mean", "ci95_low", "ci95_high", "min", "max",
        "apple_reference", "ratio_to_apple", "earlier_reference", "method",
    ]

    package static var header: String { columns.joined(separator: ",") + "\n" }

    package static func row(_ m: CalibrationMeasurement) -> String {
        func number(_ value: Double?) -> String { value.map { CSVField.number($0, decimals: 3) } ?? "" }
        let ci = m.summary?.confidenceInterval95
        let fields = [
            m.id, CSVField.escape(m.operation), m.unit.rawValue, String(m.rounds.count),
            number(m.summary?.median), number(m.summary?.mean), number(ci?.lower), number(ci?.upper),
            number(m.summary?.minimum), number(m.summary?.maximum),
            number(m.reference), m.ratio.map { CSVField.number($0, decimals: 4) } ?? "", number(m.earlierReference),
            CSVField.escape(m.method),
        ]
        return fields.joined(separator: ",") + "\n"
    }

    package static func serialize(_ measurements: [CalibrationMeasurement]) -> String {
        header + measurements.map(row).joined()
    }
}
