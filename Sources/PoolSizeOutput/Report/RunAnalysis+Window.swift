import PoolSizeModel

extension RunAnalysis {
    /// How the closed-loop trials' windows ended, one sentence for the console and the report:
    /// how many ended once their throughput was known within the plan's margin, after how long,
    /// and how many ran their planned window, known to what margin. Nil for a run whose trials
    /// could not end early (a fixed length, an open loop, a server's or a tool's trials).
    package var windowSentence: String? {
        // A plan with a margin is a closed loop's (`SweepPlan.setTrialMargin`).
        guard let margin = run.plan?.trialMargin, !run.records.isEmpty else { return nil }
        let trials = run.records
        let known = trials.filter { $0.windowEnd == .known }
        let whole = trials.filter { $0.windowEnd != .known }
        let seconds: (Double) -> String = { UnitFormat.duration($0) }
        let percent: (Double) -> String = { UnitFormat.percent($0) }
        var parts: [String] = []
        if !known.isEmpty {
            let windows = Self.span(known.map(\.wallSeconds), format: seconds)
            parts.append(
                "\(known.count) of \(trials.count) ended once their throughput was known within ±\(percent(margin)) (windows of \(windows))"
            )
        }
        if !whole.isEmpty {
            let margins = whole.compactMap(\.throughputMargin)
            let how = margins.isEmpty ? "" : ", known to ±" + Self.span(margins, format: percent)
            let lead = known.isEmpty ? "all \(trials.count)" : "\(whole.count)"
            let windows = Self.span(whole.map(\.wallSeconds), format: seconds)
            parts.append("\(lead) ran their whole window (\(windows)\(how))")
        }
        return "trials: " + parts.joined(separator: "; ")
    }

    /// `0.12 s–0.48 s`, or one figure when the smallest and largest read alike.
    static func span(_ values: [Double], format: (Double) -> String) -> String {
        guard let low = values.min(), let high = values.max() else { return "–" }
        let (a, b) = (format(low), format(high))
        return a == b ? a : "\(a)–\(b)"
    }
}
