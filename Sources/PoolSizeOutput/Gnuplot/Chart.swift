/// One gnuplot chart: the script, the data files it reads (written beside it), and the words a
/// report uses for it. `gnuplot <name>.gp` renders `<name>.svg` and `<name>.png` next to the
/// script, wherever it is run from.
public struct Chart: Equatable, Sendable {
    /// File stem: `throughput` → throughput.gp, throughput.dat, throughput.svg, throughput.png.
    public var name: String
    /// What the chart shows, as a heading: `Throughput vs pool size`.
    public var caption: String
    /// One or two sentences for the report: how to read the chart.
    public var note: String
    public var script: String
    public var dataFiles: [DataFile]

    public init(name: String, caption: String, note: String, script: String, dataFiles: [DataFile]) {
        self.name = name
        self.caption = caption
        self.note = note
        self.script = script
        self.dataFiles = dataFiles
    }

    public var scriptFile: String { name + ".gp" }
    public var svgFile: String { name + ".svg" }
    public var pngFile: String { name + ".png" }
}

/// A whitespace-separated data file a script reads (`# ` comment lines name the columns).
public struct DataFile: Equatable, Sendable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
