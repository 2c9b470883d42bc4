/// The automatic rate's bookkeeping over one observation: what the sampling thread has spent,
/// what a cycle (wake-up, sweep, sleep) costs now, and what the last sweep will cost. The first
/// and the last sweep read every thread's status and cannot be skipped, so the last one's cost
/// (taken to be the first one's) is set aside from the start. What is left of the budget is
/// spread evenly over what is left of the observation, so a costly first sweep (it opens every
/// file) does not thin out the sweeps that follow; no sweep starts that would take the whole
/// observation past `ceilingFraction`. Pure: the sampler feeds it measured costs, a test a cost
/// model.
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

    /// The first sweep, which cost `costSeconds`: it sets the reserve for the last sweep. It is
    /// no estimate of a cycle (it also opened every file and read every status): the first
    /// cycle, at the full rate, makes that.
    package mutating func firstSwept(costSeconds: Double) {
        spentSeconds = costSeconds
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
            // The budget left after the reserve, spread over the time left: as many cycles as it
            // pays for, evenly, never faster than the maximum rate.
            let remaining = max(plannedSeconds - elapsedSeconds, 1 / maximum)
            let available = budget * plannedSeconds - spentSeconds - reserveSeconds
            guard available > cycleSeconds else { return remaining }
            return max(1 / maximum, cycleSeconds * remaining / available)
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
