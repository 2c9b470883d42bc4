extension SweepPlan {
    /// The margin a closed-loop trial ends at by default: its throughput known within 2%.
    package static let defaultTrialMargin = 0.02

    /// Sets `trialMargin` to `requested` where a trial may end early: a closed loop of
    /// poolsize's own pools (a workload, command, HTTP, trace or database sweep) or of its
    /// driver against a server, with no workload phases (a window cut short would skip the later
    /// ones). With no margin requested it is the default, unless `trialMilliseconds` is given:
    /// a length asked for alone is a fixed length; with a margin, the longest a trial runs.
    /// Where a trial cannot end early it is nil, and a margin asked for there is refused when
    /// `refusing` (the command line's flag), dropped when not (the library's default). One
    /// outside (0, 0.5) is refused (`checkTrialMargin`).
    package mutating func setTrialMargin(_ requested: Double?, refusing: Bool = true) throws(PoolSizeError) {
        trialMargin = requested
        try checkTrialMargin()
        if requested == nil && trialMilliseconds != nil {
            trialMargin = nil
            return
        }
        let why: String?
        if !load.hasThroughputKnee {
            why = "an open loop's trials run their length to see the arrivals of every rate"
        } else if !spec.phases.isEmpty {
            why = "a workload with phases runs every trial to its end, so that each phase is measured"
        } else {
            switch target {
            case .inProcess, .database: why = nil
            case let .server(setup):
                why = setup.loadTool == nil ? nil : "a load tool's run lasts as long as its command says"
            case .loadTool: why = "a load tool's run lasts as long as its command says"
            }
        }
        if let why {
            if requested != nil && refusing {
                throw .invalidParameter(.trialMargin, message: "does not apply: \(why); drop it")
            }
            trialMargin = nil
        } else {
            trialMargin = requested ?? Self.defaultTrialMargin
        }
    }
}

extension SweepPlan {
    /// Refuses a margin outside (0, 0.5), naming the setting.
    package func checkTrialMargin() throws(PoolSizeError) {
        guard let margin = trialMargin, !(margin > 0 && margin < 0.5) else { return }
        throw .invalidParameter(
            .trialMargin, message: "must be in (0, 0.5), got \(UnitFormat.number(margin)); write 0.02 for 2%")
    }
}
