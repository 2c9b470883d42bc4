/// One statement of a chart before its `plot`: an axis label or range, a marker, a definition.
/// Each case is one idea; `GnuplotScript` writes its lines, quoting every text.
package enum PlotSetting: Equatable, Sendable {
    /// The axis' label.
    case label(PlotAxis, String)
    /// A logarithmic axis, labelled with plain numbers (`%g`) rather than powers of ten.
    case logScale(PlotAxis)
    /// The axis from `low` to `high`; nil lets gnuplot choose that end from the data.
    case range(PlotAxis, low: Double?, high: Double?)
    /// Tick marks every `step` on the axis.
    case ticStep(PlotAxis, Double)
    /// Ticks on the right axis for y2, and none mirrored there from the left.
    case secondAxisTics
    /// Category labels under the bars, read from the data as text; rotated when they are long.
    case categoryTics(rotated: Bool)
    /// Grid lines.
    case grid(PlotGrid)
    /// Room above the highest point, as a fraction of the plot's height, so a plateau never
    /// sits on the border.
    case headroom(top: Double)
    /// Points at which a function is evaluated.
    case samples(Int)
    /// Boxes and filled curves are filled at `opacity`, outlined in `border` or not at all.
    case fill(opacity: Double, border: String?)
    /// Width of a bar, as a fraction of the distance between bars.
    case boxWidth(Double)
    /// Left margin in character widths (room for labels rotated to end under their bar).
    case leftMargin(Int)
    /// A dashed vertical line at `x` with the text rotated beside it.
    case verticalMarker(tag: Int, x: Double, text: String, color: String, dash: Int)
    /// A horizontal line across the plot at `y`, with a label at its left end when `text` is set.
    case horizontalMarker(tag: Int, y: Double, text: String?, color: String, dash: Int, width: Double?)
    /// A point at (`x`, `y`) labelled with `text`.
    case pointMarker(tag: Int, x: Double, y: Double, text: String, color: String)
    /// An empty line: separates groups of statements for a reader of the script.
    case spacer
    /// A comment line for a reader of the script.
    case remark(String)
    /// A named real a function uses, with what it is in a comment beside it.
    case variable(String, Double, note: String?)
    /// A function of one argument (`formula(n) = …`); the body is an arithmetic expression of
    /// the argument and the variables defined before it.
    case function(String, parameter: String, body: String)
}
