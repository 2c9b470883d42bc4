import Foundation
import PoolSizeModel

/// Draws each task's CPU and wait time from the spec's jitter distribution.
///
/// Draws are a pure function of (seed, task index) through SplitMix64 (Steele, Lea & Flood,
/// "Fast splittable pseudorandom number generators", OOPSLA 2014), so a run is reproducible
/// with `--seed` whichever thread happens to run which task.
public struct TaskTimes: Sendable, Equatable {
    public let spec: WorkloadSpec
    public let seed: UInt64

    public init(spec: WorkloadSpec, seed: UInt64) {
        self.spec = spec
        self.seed = seed
    }

    /// CPU and wait microseconds for task `index`.
    public func times(forTask index: UInt64) -> (cpuMicroseconds: Double, waitMicroseconds: Double) {
        var state = seed ^ (index &* 0x9E37_79B9_7F4A_7C15)
        let u1 = Self.unit(&state)
        let u2 = Self.unit(&state)
        return (draw(spec.cpuMicroseconds, u1), draw(spec.waitMicroseconds, u2))
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

    /// SplitMix64 step mapped to [0, 1).
    static func unit(_ state: inout UInt64) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1.0p-53
    }
}
