/// How often the sampler sweeps the target's threads. The instants are Poisson (exponential
/// gaps): a fixed rate aliases with periodic work (a 20 Hz sampler caught none of a 7% recv
/// share at 20 jobs/s; docs/platform.md).
package enum SamplingRate: Equatable, Sendable, Codable {
    /// Up to `maximumPerSecond` sweeps a second, slowed so the sampler's own CPU stays within
    /// `budgetFraction` of one core (measured as it goes: a process with many threads costs more
    /// per sweep).
    case automatic(maximumPerSecond: Double, budgetFraction: Double)
    /// A mean of this many sweeps a second, whatever they cost.
    case fixed(perSecond: Double)

    /// The default: up to 100 Hz within 1% of one core, aiming at 0.8% to leave a margin.
    package static let standard = SamplingRate.automatic(maximumPerSecond: 100, budgetFraction: 0.008)

    /// The mean gap before the next sweep, given the CPU a sampling cycle (wake-up, sweep, sleep) costs now.
    package func meanGapSeconds(cycleCPUSeconds: Double) -> Double {
        switch self {
        case let .automatic(maximum, budget): return max(1 / maximum, cycleCPUSeconds / budget)
        case let .fixed(rate): return 1 / rate
        }
    }
}
