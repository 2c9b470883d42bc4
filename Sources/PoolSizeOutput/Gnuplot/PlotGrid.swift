/// Which grid lines a chart draws.
package enum PlotGrid: String, CaseIterable, Sendable {
    /// At every major tick of both axes.
    case both
    /// Only across the values (bar charts: the categories need none).
    case values
    /// At every tick, drawn over filled areas so they stay readable.
    case front
}
