import PoolSizeModel

/// What a rule of thumb's size gave in an open-loop server sweep at the rate sized for: whether
/// it kept up and met the objective, with its percentile, against the recommended size (the
/// open loop's terms; `RuleOfThumbResult` is the closed loop's, against the knee's throughput).
package struct OpenLoopRuleResult: Equatable, Sendable {
    /// The rule.
    package var rule: RuleOfThumb
    /// The size it gives in the sweep (on its cores, or the server's limit).
    package var size: Int
    /// The size's verdict at `arrivalRate`; nil when the sweep has no valid trial there.
    package var verdict: SLOVerdict?
    /// The rate the recommendation is for.
    package var arrivalRate: ArrivalRate
    /// The objective, µs; nil when the sweep sized for keeping up alone.
    package var latencySLOMicroseconds: Double?
    /// The objective's percentile by name (`p99`).
    package var percentileName: String
    /// The recommended size; nil when no size measured met the objective.
    package var recommendedSize: Int?

    /// Each rule of `rules` at its size, judged by its verdict among `verdicts` (the sizes at
    /// `arrival`'s top rate), against `recommended`.
    package static func compare(
        _ verdicts: [SLOVerdict], arrival: ArrivalPlan, recommended: Int?, rules: RuleSet
    ) -> [OpenLoopRuleResult] {
        rules.sized.map { rule, size in
            return OpenLoopRuleResult(
                rule: rule, size: size, verdict: verdicts.first { $0.poolSize == size }, arrivalRate: arrival.topRate,
                latencySLOMicroseconds: arrival.latencySLOMicroseconds,
                percentileName: SLOSizer.name(percentile: arrival.sloPercentile), recommendedSize: recommended)
        }
    }

    /// `2 × cores + 1 = 5: meets p99 ≤ 50.0 ms at 400/s (p99 31.2 ms); 3 fewer than the
    /// recommended 8`, `cores = 2: does not keep up with 400/s (carried 199/s, p99 ≥ 2.41 s); …`,
    /// or that it was not measured.
    package var sentence: String {
        let head = "\(rule.rawValue) = \(size)"
        guard let verdict else { return "\(head): no valid trial at this size" }
        let rate = UnitFormat.rate(arrivalRate)
        let measured = "\(percentileName) \(UnitFormat.duration(microseconds: verdict.percentileMicroseconds))"
        var text: String
        if !verdict.stable {
            text =
                "does not keep up with \(rate) (carried \(UnitFormat.number(verdict.achievedPerSecond))/s, \(percentileName) ≥ \(UnitFormat.duration(microseconds: verdict.percentileMicroseconds)))"
        } else if let slo = latencySLOMicroseconds {
            let goal = "\(percentileName) ≤ \(UnitFormat.duration(microseconds: slo))"
            text = "\(verdict.meetsSLO == true ? "meets" : "misses") \(goal) at \(rate) (\(measured))"
        } else {
            text = "keeps up with \(rate) (\(measured))"
        }
        guard let recommendedSize else { return "\(head): \(text)" }
        if size == recommendedSize { return "\(head): the recommended size, \(text)" }
        let apart = abs(size - recommendedSize)
        return
            "\(head): \(text); \(apart) \(size < recommendedSize ? "fewer" : "more") than the recommended \(recommendedSize)"
    }
}
