/// How a series is drawn: the kind of mark, its options in the order the script states them,
/// and its colour.
package struct PlotStyle: Equatable, Sendable {
    /// The kind of mark.
    package enum Kind: String, CaseIterable, Sendable {
        /// Straight lines between the points.
        case lines
        /// Lines with a mark at each point.
        case linespoints
        /// Marks only.
        case points
        /// A staircase: each value holds until the next.
        case steps
        /// Lines and points with a vertical error bar at each point (columns x, y, low, high).
        case yerrorlines
        /// Points with a vertical error bar (columns x, y, low, high).
        case yerrorbars
        /// Bars from zero.
        case boxes
        /// Text at each point.
        case labels
        /// The area between two columns, filled.
        case filledcurves
    }

    /// An option of the mark.
    package enum Option: Equatable, Sendable {
        /// Line width.
        case width(Double)
        /// Dash pattern (1 solid, 2 dashed, 3 dotted, 4 dash-dot).
        case dash(Int)
        /// Point shape.
        case pointType(Int)
        /// Point size.
        case pointSize(Double)
        /// Shift of a text label, in character widths and heights.
        case offset(Double, Double)
    }

    package var kind: Kind
    package var options: [Option]
    /// `#rrggbb` or a gnuplot colour name; nil keeps gnuplot's.
    package var color: String?

    package init(_ kind: Kind, _ options: [Option] = [], color: String? = nil) {
        self.kind = kind
        self.options = options
        self.color = color
    }
}

extension PlotStyle {
    /// The `index`th measured line of a chart of several: lines and points, 2 wide, its own
    /// point type and colour.
    package static func measuredLine(_ index: Int) -> PlotStyle {
        PlotStyle(
            .linespoints, [.width(2), .pointType(GnuplotScript.pointType(index))], color: GnuplotScript.color(index))
    }
}
