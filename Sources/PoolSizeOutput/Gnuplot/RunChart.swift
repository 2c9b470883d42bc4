/// A chart of a run: a builder that describes it as a `PlotSpec` when the run's data supports
/// it, rendered by `GnuplotScript`.
package protocol RunChart {
    /// The chart's description, or nil when the run did not vary or record what it shows.
    static func plot(_ analysis: RunAnalysis) -> PlotSpec?
}

extension RunChart {
    /// The chart rendered: script, data files and the report's words.
    package static func chart(_ analysis: RunAnalysis) -> Chart? {
        plot(analysis).map(GnuplotScript.render)
    }
}
