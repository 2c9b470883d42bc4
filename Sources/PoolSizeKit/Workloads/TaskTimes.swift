import Foundation
import PoolSizeModel

/// Draws each task's CPU and wait time from the spec's jitter distribution.
///
/// Draws are a pure function of (seed, task index) through `SeededGenerator`, so a run is reproducible
/// with `--seed` whichever thread happens to run which task.
package struct TaskTimes: Sendable, Equatable {
    /// The means and the jitter.
    package let spec: WorkloadSpec
    /// Seed of the draws.
    package let seed: UInt64

    /// CPU and wait microseconds for task `index`.
    package func times(forTask index: UInt64) -> (cpuMicroseconds: Double, waitMicroseconds: Double) {
        times(forTask: index, means: (spec.cpuMicroseconds, spec.waitMicroseconds))
    }

    /// CPU and wait microseconds for task `index`, around `means` (a phase's) instead of the spec's.
    package func times(
        forTask index: UInt64, means: (cpuMicroseconds: Double, waitMicroseconds: Double)
    ) -> (cpuMicroseconds: Double, waitMicroseconds: Double) {
        var generator = SeededGenerator(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        let u1 = generator.nextUnit()
        let u2 = generator.nextUnit()
        return (draw(means.cpuMicroseconds, u1), draw(means.waitMicroseconds, u2))
    }

    private func draw(_ mean: Double, _ u: Double) -> Double {
        switch spec.jitter {
        case .none:
            return mean
        case .uniform:
            return mean * (1 - spec.jitterSpread + 2 * spec.jitterSpread * u)
        case .exponential:
            // Inverse CDF; capped at 20× the mean so one draw cannot stall a short trial.
            return min(-mean * log(1 - u), 20 * mean)
        }
    }
}
