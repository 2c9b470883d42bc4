extension TrialRecord {
    /// How a closed-loop trial's window ended (`windowEnd`, trials.csv's `window_end`).
    package enum WindowEnd: String, Equatable, Sendable, Codable, CaseIterable {
        /// At the length planned for it: a fixed trial length (`--trial-ms`), an open loop, a
        /// load tool's run, or a trial that finished its tasks.
        case planned
        /// Before its planned length, once its throughput was known within the sweep's margin
        /// (`SweepPlan.trialMargin`).
        case known
        /// At its planned length, which a trial allowed to end early reached without its
        /// throughput being known within the margin.
        case longest
    }
}
