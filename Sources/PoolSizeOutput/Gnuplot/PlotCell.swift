/// One value of a data file's row.
package enum PlotCell: Equatable, Sendable {
    /// A number; NaN (gnuplot skips the point) for a value not measured.
    case number(Double)
    /// A text column (a bar's label), read by gnuplot as one column even with spaces in it.
    case text(String)

    /// A whole number.
    package static func integer(_ value: Int) -> PlotCell { .number(Double(value)) }

    /// A value not measured: gnuplot leaves the point out.
    package static let missing = PlotCell.number(.nan)
}
