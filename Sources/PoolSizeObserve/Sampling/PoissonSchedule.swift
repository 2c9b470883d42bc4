import Foundation

/// Exponentially distributed gaps with a given mean: the sampling instants form a Poisson
/// process, which no periodic behaviour of the target can fall into step with (PASTA: Poisson
/// arrivals see time averages; Wolff, Operations Research 30(2), 1982). Seeded for
/// reproducible schedules.
package struct PoissonSchedule<Generator: RandomNumberGenerator> {
    private var generator: Generator

    /// A schedule drawing from `generator`.
    package init(generator: Generator) {
        self.generator = generator
    }

    /// The next gap: −mean · ln(1 − u), u uniform in [0, 1).
    package mutating func nextGap(meanSeconds: Double) -> Double {
        let unit = Double(generator.next() >> 11) * 0x1.0p-53
        return -meanSeconds * log1p(-unit)
    }
}
