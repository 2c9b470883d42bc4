extension PlotSetting {
    /// The axes of a chart over sizes, in the order every such chart states them: both labels,
    /// the grid, x from 0 past the largest size, y from 0 up to `yHigh` (gnuplot's own when nil).
    package static func sizeAxes(x: String, y: String, sizes: [Int], yHigh: Double? = nil) -> [PlotSetting] {
        [
            .label(.x, x), .label(.y, y), .grid(.both), .range(.x, low: 0, high: GnuplotScript.axisMaximum(sizes)),
            .range(.y, low: 0, high: yHigh),
        ]
    }
}
