/// One chart as a value: what it shows (axes, markers, series), the data it reads, and the words
/// the report uses for it. Builders fill it from a run; `GnuplotScript.render` is the only place
/// that turns it into gnuplot syntax, so every user string it holds (a workload or pool name, a
/// host name) is escaped in one place.
package struct PlotSpec: Equatable, Sendable {
    /// File stem: `throughput` → throughput.gp, throughput.svg, throughput.png.
    package var name: String
    /// What the chart shows, as a heading: `Throughput vs pool size`.
    package var caption: String
    /// The run the chart is of (`io workload, 2 cores, 2026-11-22`): the title's second line.
    package var headline: String
    /// One or two sentences for the report: how to read the chart.
    package var note: String
    /// The script's comment saying which data files it reads and how they are laid out.
    package var dataNote: String
    /// Axes, markers and definitions, in the order the script states them (after the title).
    package var settings: [PlotSetting]
    /// What the `plot` command draws, in legend order.
    package var series: [PlotSeries]
    /// The data files the series read, written beside the script.
    package var data: [PlotData]

    package init(
        name: String, caption: String, headline: String, note: String, dataNote: String,
        settings: [PlotSetting], series: [PlotSeries], data: [PlotData]
    ) {
        self.name = name
        self.caption = caption
        self.headline = headline
        self.note = note
        self.dataNote = dataNote
        self.settings = settings
        self.series = series
        self.data = data
    }

    /// Legend entries: a chart with many gets a taller canvas and a two-column legend.
    package var legendEntries: Int { series.filter { $0.title != .hidden }.count }
}
