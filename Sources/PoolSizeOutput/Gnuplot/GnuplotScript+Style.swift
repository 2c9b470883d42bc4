extension GnuplotScript {
    /// Series colours: matplotlib's "tab10" without the four reserved for markers below, so a
    /// measured curve is never mistaken for the formula, the knee, the recommendation or the USL.
    static let palette = ["#1f77b4", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#bcbd22", "#393b79", "#637939"]
    static let grey = "#7f7f7f"
    static let kneeColor = "#2ca02c"
    static let recommendedColor = "#d62728"
    static let uslColor = "#9467bd"
    /// Point types cycled with the palette: filled circle, square, triangle, diamond, …
    static let pointTypes = [7, 5, 9, 13, 11, 15, 6, 4, 8, 12]

    static func color(_ index: Int) -> String { palette[index % palette.count] }
    static func pointType(_ index: Int) -> Int { pointTypes[index % pointTypes.count] }

    /// Right end of a pool-size axis: 5% beyond the largest size, so the last point is not on
    /// the border.
    static func axisMaximum(_ sizes: [Int]) -> Double {
        (Double(sizes.max() ?? 1) * 1.05).rounded(.up)
    }
}
