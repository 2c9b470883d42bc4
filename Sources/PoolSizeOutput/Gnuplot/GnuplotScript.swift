import Foundation

/// The one renderer of charts: a `PlotSpec` in, the gnuplot script and data files out. Every
/// chart shares the frame: the script finds its own directory from `ARG0` (so
/// `gnuplot plots/<run-id>/throughput.gp` works from any working directory), plots once to SVG,
/// then `replot`s the same chart to PNG (pngcairo), 800 × 500 so it reads at 800 px wide. User
/// text enters only through `quote`, `comment` and `label` (GnuplotScript+Escaping.swift).
enum GnuplotScript {
    static let width = 800
    static let height = 500
    static let font = "Helvetica,12"

    /// The chart `spec` describes: its script, its data files and the report's words for it.
    static func render(_ spec: PlotSpec) -> Chart {
        Chart(
            name: spec.name, caption: spec.caption, note: spec.note, script: script(spec),
            dataFiles: spec.data.map { DataFile(name: $0.name, text: data($0)) })
    }

    /// A complete script: header comments, the SVG pass (ending with the `plot`), the PNG pass.
    static func script(_ spec: PlotSpec) -> String {
        // A chart with many legend entries gets a taller canvas so the legend below the plot
        // does not squash it.
        let entries = spec.legendEntries
        let height = entries > 6 ? 600 : Self.height
        let name = spec.name
        var lines = [
            comment("poolsize chart: \(spec.caption) (\(spec.headline))"),
            "# Written by poolsize; re-render by hand with: gnuplot \(name).gp  (from any directory:",
            "# paths are taken relative to this script). Writes \(name).svg and \(name).png beside it.",
            comment(spec.dataNote),
            "",
            "dir = ''",
            "if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }",
            "set encoding utf8",
            "set terminal svg size \(width),\(height) dynamic enhanced font '\(font)' background rgb 'white'",
            "set output dir.\(quote(name + ".svg"))",
            "",
            title(spec.caption, spec.headline),
        ]
        lines += spec.settings.flatMap(statements)
        lines += key(entries: entries)
        lines += ["", "plot " + spec.series.map(series).joined(separator: ", \\\n     ")]
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
    static func key(entries: Int) -> [String] {
        // `height 1` keeps the first row clear of the x label, which gnuplot otherwise overlaps.
        entries > 4 ? ["set key below horizontal maxcols 2 font ',10' samplen 2 height 1"] : ["set key below height 1"]
    }

    /// The lines of one setting.
    static func statements(_ setting: PlotSetting) -> [String] {
        switch setting {
        case let .label(axis, text):
            return ["set \(axis.rawValue)label \(quote(text))"]
        case let .logScale(axis):
            return ["set logscale \(axis.rawValue)", "set format \(axis.rawValue) '%g'"]
        case let .range(axis, low, high):
            return ["set \(axis.rawValue)range [\(low.map(number) ?? "*"):\(high.map(number) ?? "*")]"]
        case let .ticStep(axis, step):
            return ["set \(axis.rawValue)tics \(number(step))"]
        case .secondAxisTics:
            return ["set y2tics", "set ytics nomirror"]
        case let .categoryTics(rotated):
            return [rotated ? "set xtics nomirror rotate by 25 right noenhanced" : "set xtics nomirror noenhanced"]
        case let .grid(grid):
            switch grid {
            case .both: return ["set grid"]
            case .values: return ["set grid ytics"]
            case .front: return ["set grid front"]
            }
        case let .headroom(top):
            return ["set offsets 0, 0, graph \(number(top)), 0  # headroom: a plateau never sits on the border"]
        case let .samples(count):
            return ["set samples \(count)"]
        case let .fill(opacity, border):
            return [
                "set style fill solid \(number(opacity)) " + (border.map { "border lc rgb \(quote($0))" } ?? "noborder")
            ]
        case let .boxWidth(width):
            return ["set boxwidth \(number(width))"]
        case let .leftMargin(width):
            return ["set lmargin \(width)"]
        case let .verticalMarker(tag, x, text, color, dash):
            return [
                "set arrow \(tag) from \(number(x)), graph 0 to \(number(x)), graph 1 nohead dt \(dash) lw 2 lc rgb \(quote(color))",
                "set label \(tag) \(quote(text)) at \(number(x)), graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb \(quote(color)) noenhanced",
            ]
        case let .horizontalMarker(tag, y, text, color, dash, width):
            let line = width.map { " lw \(number($0))" } ?? ""
            var lines = [
                "set arrow \(tag) from graph 0, first \(number(y)) to graph 1, first \(number(y)) nohead dt \(dash)\(line) lc rgb \(quote(color))"
            ]
            if let text {
                lines.append(
                    "set label \(tag) \(quote(text)) at graph 0.02, first \(number(y)) offset 0,0.7 textcolor rgb \(quote(color)) noenhanced"
                )
            }
            return lines
        case let .pointMarker(tag, x, y, text, color):
            return [
                "set label \(tag) \(quote(text)) at \(number(x)), \(number(y)) point pt 7 ps 2.2 lc rgb \(quote(color)) offset 1.2,-1.2 textcolor rgb \(quote(color)) front"
            ]
        case .spacer:
            return [""]
        case let .remark(text):
            return [comment(text)]
        case let .variable(name, value, note):
            return ["\(name) = \(real(value))" + (note.map { "  " + comment($0) } ?? "")]
        case let .function(name, parameter, body):
            return ["\(name)(\(parameter)) = \(body)"]
        }
    }

    /// One element of the `plot` command.
    static func series(_ series: PlotSeries) -> String {
        var words: [String] = []
        switch series.source {
        case let .file(name): words.append("dir.\(quote(name))")
        case .sameFile: words.append("''")
        case let .function(name, from, to):
            let range = from == nil && to == nil ? "" : "[\(from.map(number) ?? ""):\(to.map(number) ?? "")] "
            words.append(range + name + "(x)")
        case .identity: words.append("x")
        case let .constant(value): words.append(real(value))
        }
        if let block = series.block { words.append("index \(block)") }
        if !series.columns.isEmpty { words.append("using " + series.columns.map(column).joined(separator: ":")) }
        if let axis = series.axis { words.append(axis == .y2 ? "axes x1y2" : "axes x1y1") }
        words.append("with " + series.style.kind.rawValue)
        words += series.style.options.map(option)
        if let color = series.style.color { words.append("lc rgb \(quote(color))") }
        switch series.title {
        case .hidden: words.append("notitle")
        case let .literal(text): words.append("title \(quote(text)) noenhanced")
        case let .enhanced(text): words.append("title \(quote(text))")
        }
        return words.joined(separator: " ")
    }

    static func column(_ column: PlotColumn) -> String {
        switch column {
        case let .column(n): return String(n)
        case let .sum(columns):
            return "(" + (columns.isEmpty ? "0" : columns.map { "$\($0)" }.joined(separator: "+")) + ")"
        case let .ticLabel(n): return "xtic(\(n))"
        case let .formatted(format, n): return "(sprintf(\(quote(format)), $\(n)))"
        }
    }

    static func option(_ option: PlotStyle.Option) -> String {
        switch option {
        case let .width(width): return "lw \(number(width))"
        case let .dash(dash): return "dt \(dash)"
        case let .pointType(type): return "pt \(type)"
        case let .pointSize(size): return "ps \(number(size))"
        case let .offset(x, y): return "offset \(number(x)),\(number(y))"
        }
    }

    /// A data file: its header comments, then its blocks two blank lines apart, each with its
    /// comments and rows.
    static func data(_ data: PlotData) -> String {
        var text = data.header.map { comment($0) + "\n" }.joined()
        for (index, block) in data.blocks.enumerated() {
            if index > 0 { text += "\n\n" }
            text += block.comments.map { comment($0) + "\n" }.joined()
            text += block.rows.map { row in row.map(cell).joined(separator: "  ") + "\n" }.joined()
        }
        return text
    }

    static func cell(_ cell: PlotCell) -> String {
        switch cell {
        case let .number(value): return number(value)
        case let .text(text): return label(text)
        }
    }
}
