/// One thing the `plot` command draws: columns of a data file, or a function of x, in a style,
/// with its legend entry.
package struct PlotSeries: Equatable, Sendable {
    /// Where the points come from.
    package enum Source: Equatable, Sendable {
        /// A data file beside the script.
        case file(String)
        /// The data file the previous series read (gnuplot's `''`).
        case sameFile
        /// The function defined as `name` (a `PlotSetting.function`) evaluated at x, optionally
        /// only over `from` to `to`.
        case function(String, from: Double? = nil, to: Double? = nil)
        /// y = x: the diagonal.
        case identity
        /// A horizontal line at this value; NaN draws nothing and leaves only the legend entry.
        case constant(Double)
    }

    /// The series' legend entry.
    package enum Title: Equatable, Sendable {
        /// No legend entry.
        case hidden
        /// Shown as written: names are data, so `db_primary`'s underscore stays an underscore.
        case literal(String)
        /// Read as gnuplot's enhanced text (`^` and `_` for super- and subscripts).
        case enhanced(String)
    }

    package var source: Source
    /// The block of the data file (gnuplot's `index`), when the file has several.
    package var block: Int?
    /// The columns read from the data file; empty for a function or a constant.
    package var columns: [PlotColumn]
    /// The vertical axis the series is scaled against, when the chart has two.
    package var axis: PlotAxis?
    package var style: PlotStyle
    package var title: Title

    package init(
        _ source: Source, block: Int? = nil, columns: [PlotColumn] = [], axis: PlotAxis? = nil, style: PlotStyle,
        title: Title
    ) {
        self.source = source
        self.block = block
        self.columns = columns
        self.axis = axis
        self.style = style
        self.title = title
    }
}
