import PoolSizeModel

/// What a server sweep's W/C by size is, beside the low-load W/C the formula uses: a trial's W
/// is the mean time to answer less C (`ServerTrialMeasurer`), so it holds the time requests
/// queued in the server behind the load's other requests in flight, where the low-load phase
/// sends one at a time. Both columns read "W/C", so the tables say which is which.
package enum ServerWaitProse {
    /// One sentence for under a closed-loop server sweep's table; nil for every other run.
    package static func note(_ analysis: RunAnalysis) -> String? {
        guard let server = analysis.server, analysis.loop == .closed, analysis.measuresTaskCPU else { return nil }
        let load =
            server.loadTool == nil
            ? "the driver's \(server.connections) requests in flight" : "the load tool's requests in flight"
        var text =
            "W/C by size is each trial's under load, (mean time to answer − C) ÷ C: its W includes the time requests "
            + "queued in the server behind \(load), which grows as the pool shrinks"
        if let lowLoad = analysis.run.lowLoad, lowLoad.isMeasured {
            text +=
                "; the formula uses the low-load W/C \(UnitFormat.significant(lowLoad.waitCPURatio)) (one request "
                + "in flight), not these"
        }
        return text + "."
    }
}
