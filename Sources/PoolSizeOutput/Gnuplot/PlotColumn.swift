/// One column of a series' `using`: which data column, or a value computed from the row.
package enum PlotColumn: Equatable, Sendable {
    /// Data column `n` (from 1); 0 is the row's position in its block.
    case column(Int)
    /// The sum of these columns (0 when none): the top of a stacked band.
    case sum([Int])
    /// Column `n`'s text as the tick label under the point (bar charts).
    case ticLabel(Int)
    /// Column `n` written with a `printf` format: the text of a value label.
    case formatted(String, Int)
}
