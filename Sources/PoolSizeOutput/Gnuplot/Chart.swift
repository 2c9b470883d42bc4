/// One gnuplot chart: the script, the data files it reads (written beside it), and the words a
/// report uses for it. `gnuplot <name>.gp` renders `<name>.svg` and `<name>.png` next to the
/// script, wherever it is run from.
package struct Chart: Equatable, Sendable {
    /// File stem: `throughput` → throughput.gp, throughput.dat, throughput.svg, throughput.png.
    package var name: String
    /// What the chart shows, as a heading: `Throughput vs pool size`.
    package var caption: String
    /// One or two sentences for the report: how to read the chart.
    package var note: String
    package var script: String
    package var dataFiles: [DataFile]

    package init(name: String, caption: String, note: String, script: String, dataFiles: [DataFile]) {
        self.name = name
        self.caption = caption
        self.note = note
        self.script = script
        self.dataFiles = dataFiles
    }

    package var scriptFile: String { name + ".gp" }
    package var svgFile: String { name + ".svg" }
    package var pngFile: String { name + ".png" }
}

/// A whitespace-separated data file a script reads (`# ` comment lines name the columns).
package struct DataFile: Equatable, Sendable {
    package var name: String
    package var text: String
}
