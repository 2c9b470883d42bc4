import PoolSizeAnalysis
import PoolSizeModel

extension RunAnalysis {
    /// What each rule of thumb gave in an open-loop server sweep at the rate sized for, against
    /// the recommendation when a size met the objective; empty for a sweep that measured no
    /// rules or without a recommendation.
    package func openLoopRulesOfThumb(_ open: OpenLoop) -> [OpenLoopRuleResult] {
        guard let rules = ruleSet, let recommendation = run.recommendation?.best ?? primary?.recommendation else {
            return []
        }
        let verdicts = open.table(recommendation.combination, rate: open.topRate)?.verdicts ?? []
        return OpenLoopRuleResult.compare(
            verdicts, arrival: open.arrival,
            recommended: recommendation.latency?.met == true ? recommendation.recommendedQueueCount : nil,
            rules: rules)
    }
}
