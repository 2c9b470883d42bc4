/// An axis of a chart: x along the bottom, y on the left, y2 on the right.
package enum PlotAxis: String, CaseIterable, Sendable {
    /// The horizontal axis.
    case x
    /// The left vertical axis.
    case y
    /// The right vertical axis (a second quantity with its own scale).
    case y2
}
