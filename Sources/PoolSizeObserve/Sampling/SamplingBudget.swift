/// The automatic rate's bookkeeping over one observation: what the sampling thread has spent,
/// what a cycle (wake-up, sweep, sleep) costs now, and what the last sweep will cost. The first
/// and the last sweep read every thread's status and cannot be skipped, so the last one's cost
/// (taken to be the first one's) is set aside from the start; the mean gap grows with any CPU
/// spent ahead of the budget, and no sweep starts that would take the whole observation past
/// `ceilingFraction`. Pure: the sampler feeds it measured costs, a test a cost model.
package struct SamplingBudget: Sendable {
    /// What the automatic rate promises: the observer's CPU within 1% of one core.
    package static let ceilingFraction = 0.01

    /// The rate asked for.
    package let rate: SamplingRate
    /// How long the observation is planned to last, seconds.
    package let plannedSeconds: Double
    /// CPU the sampling thread has spent so far, seconds.
    package private(set) var spentSeconds = 0.0
    /// What a cycle costs now: the last few averaged, so one slow read does not steer the rate.
    package private(set) var cycleSeconds = 0.0
    /// Set aside for the last sweep.
    package private(set) var reserveSeconds = 0.0

    /// A budget for an observation of `plannedSeconds` at `rate`.
    package init(rate: SamplingRate, plannedSeconds: Double) {
        self.rate = rate
        self.plannedSeconds = plannedSeconds
    }

    /// The first sweep, which cost `costSeconds`: it sets the first estimate of a cycle and the
    /// reserve for the last sweep.
    package mutating func firstSwept(costSeconds: Double) {
        spentSeconds = costSeconds
        cycleSeconds = costSeconds
        reserveSeconds = costSeconds
    }

    /// A cycle that cost `cycleSeconds`, leaving the thread's total at `spentSeconds`.
    package mutating func swept(cycleSeconds cost: Double, spentSeconds spent: Double) {
        spentSeconds = spent
        cycleSeconds = cycleSeconds == 0 ? cost : 0.8 * cycleSeconds + 0.2 * cost
    }

    /// The mean gap before the next sweep, `elapsedSeconds` into the observation.
    package func meanGapSeconds(elapsedSeconds: Double) -> Double {
        switch rate {
        case let .automatic(maximum, budget):
            // Spent, the next cycle and the reserve, at the budget, set when the next sweep may
            // come; the gap never falls below the steady rate's.
            let debt = (spentSeconds + cycleSeconds + reserveSeconds) / budget - elapsedSeconds
            return max(rate.meanGapSeconds(cycleCPUSeconds: cycleSeconds), debt, 1 / maximum)
        case .fixed:
            return rate.meanGapSeconds(cycleCPUSeconds: cycleSeconds)
        }
    }

    /// Whether one more sweep keeps the observation, its last sweep included, within the
    /// promise; always at a fixed rate, which is followed whatever it costs.
    package var allowsSweep: Bool {
        guard case .automatic = rate else { return true }
        return spentSeconds + cycleSeconds + reserveSeconds <= Self.ceilingFraction * plannedSeconds
    }
}
