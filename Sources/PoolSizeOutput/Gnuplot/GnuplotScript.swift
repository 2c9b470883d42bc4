import Foundation

/// The frame every chart script shares: it finds its own directory from `ARG0` (so
/// `gnuplot plots/<run-id>/throughput.gp` works from any working directory), plots once to SVG,
/// then `replot`s the same chart to PNG (pngcairo), 800 × 500 so it reads at 800 px wide.
enum GnuplotScript {
    static let width = 800
    static let height = 500
    static let font = "Helvetica,12"
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

    /// A complete script: header comments, the SVG pass (`body` ends with a `plot`), the PNG pass.
    /// - Parameter legendEntries: a chart with many legend entries gets a taller canvas so the
    ///   legend below the plot does not squash it.
    static func wrap(
        name: String, caption: String, headline: String, dataComment: [String], body: [String], legendEntries: Int = 1
    ) -> String {
        let height = legendEntries > 6 ? 600 : Self.height
        var lines = [
            comment("poolsize chart: \(caption) (\(headline))"),
            "# Written by poolsize; re-render by hand with: gnuplot \(name).gp  (from any directory:",
            "# paths are taken relative to this script). Writes \(name).svg and \(name).png beside it.",
        ]
        lines += dataComment.map(comment)
        lines += [
            "",
            "dir = ''",
            "if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }",
            "set encoding utf8",
            "set terminal svg size \(width),\(height) dynamic enhanced font '\(font)' background rgb 'white'",
            "set output dir.\(quote(name + ".svg"))",
            "",
        ]
        lines += body
        lines += [
            "",
            "set terminal pngcairo size \(width),\(height) enhanced font '\(font)' background rgb 'white'",
            "set output dir.\(quote(name + ".png"))",
            "replot",
            "unset output",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The legend goes below the plot, where it cannot cover data; past four entries in two
    /// columns, at 10 pt so two of the longest titles fit side by side in 800 px.
    static func legendEntries(_ plots: [String]) -> Int {
        plots.filter { !$0.hasSuffix("notitle") }.count
    }

    static func key(entries: Int) -> [String] {
        // `height 1` keeps the first row clear of the x label, which gnuplot otherwise overlaps.
        entries > 4 ? ["set key below horizontal maxcols 2 font ',10' samplen 2 height 1"] : ["set key below height 1"]
    }

    /// `set title 'Caption'."\n".'headline' noenhanced`: the line break is the only double-quoted
    /// string and holds no user text; the headline carries the workload name, which may come from
    /// someone else's run directory, so it is a single-quoted literal. `noenhanced` keeps
    /// `db_primary`'s underscore from being read as markup.
    static func title(_ caption: String, _ headline: String) -> String {
        "set title \(quote(caption)).\"\\n\".\(quote(headline)) noenhanced"
    }

    /// The one way user text enters a script: a single-quoted gnuplot string. gnuplot expands
    /// backquoted commands and `@macros` only outside single quotes, and a single-quoted string
    /// has no escapes but `''` for a quote.
    static func quote(_ text: String) -> String {
        "'" + inert(text).replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A `#` comment line of a script or data file: one line whatever `text` holds, so a newline
    /// in a workload name cannot end the comment and start a command.
    static func comment(_ text: String) -> String {
        "# " + inert(text)
    }

    /// `text` on one line with nothing gnuplot could run: a line break would end a comment or a
    /// command, so control characters become spaces; backquotes become U+02CB, which looks the
    /// same, so no later edit that moves the text out of single quotes can make it a command.
    static func inert(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control ? " " : scalar == "`" ? "\u{02CB}" : scalar
                }))
    }

    /// A number for a script or data file: up to 6 significant digits, no locale, `NaN` for
    /// undefined values (gnuplot skips those points).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "NaN" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.6g", value)
    }

    /// A number for a gnuplot expression, always with a decimal point: gnuplot divides integers
    /// as integers (`2 / 1000` is 0), so every model parameter must be a real.
    static func real(_ value: Double) -> String {
        let text = number(value)
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "N" }) ? text : text + ".0"
    }

    /// Data rows, columns separated by two spaces.
    static func rows(_ rows: [[String]]) -> String {
        rows.map { $0.joined(separator: "  ") + "\n" }.joined()
    }

    /// A data-file string cell: double-quoted so gnuplot reads a label with spaces as one column
    /// (data files are read, never evaluated; a line break would still split the row).
    static func label(_ text: String) -> String {
        "\"" + inert(text).replacingOccurrences(of: "\"", with: "'") + "\""
    }

    /// Right end of a pool-size axis: 5% beyond the largest size, so the last point is not on
    /// the border.
    static func axisMaximum(_ sizes: [Int]) -> String {
        number((Double(sizes.max() ?? 1) * 1.05).rounded(.up))
    }

    /// A vertical marker at pool size `x` with a rotated label beside it.
    static func verticalMarker(tag: Int, x: Double, text: String, color: String, dash: Int) -> [String] {
        [
            "set arrow \(tag) from \(number(x)), graph 0 to \(number(x)), graph 1 nohead dt \(dash) lw 2 lc rgb '\(color)'",
            "set label \(tag) \(quote(text)) at \(number(x)), graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '\(color)' noenhanced",
        ]
    }
}
