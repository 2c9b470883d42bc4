/// Why a Universal Scalability Law fit was refused. Each message says what is wrong with the
/// data and what to measure instead.
package enum USLFitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer distinct pool sizes than `minimum` (6): three parameters from fewer sizes fit noise.
    case tooFewPoints(count: Int, minimum: Int)
    /// `concurrency` and `throughput` differ in length.
    case mismatchedLengths
    /// A value the USL cannot describe: NaN or infinite, a concurrency ≤ 0, a negative
    /// throughput, or no positive throughput at all.
    case nonFinite
    /// The unconstrained least-squares optimum has σ or κ below 0 by more than its 99 %
    /// uncertainty: the model only fits by scaling superlinearly, outside the USL's physics.
    case negativeCoefficient(name: String, value: Double)
    /// The fitted peak N* lies beyond 2× the largest measured concurrency (thrown by
    /// `USLFit.validated(maxConcurrency:)`, not by `fit`).
    case peakOutsideData(peak: Double, maxConcurrency: Double)
    /// Levenberg–Marquardt did not reach a minimum within its iteration budget.
    case didNotConverge

    /// The first sentence of `description`: what is wrong, without the advice.
    package var shortDescription: String {
        switch self {
        case let .tooFewPoints(count, minimum): return "needs \(minimum)+ distinct sizes, got \(count)"
        case .mismatchedLengths: return "concurrency and throughput differ in length"
        case .nonFinite: return "non-finite or non-positive values"
        case let .negativeCoefficient(name, value):
            return "\(name) = \(Self.short(value)) < 0: not USL-shaped (sharp knee?)"
        case let .peakOutsideData(peak, _): return "peak N* = \(Self.short(peak)) is beyond 2× the data"
        case .didNotConverge: return "fit did not converge"
        }
    }

    static func short(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15
            ? String(Int64(value)) : String(format: "%.3g", value)
    }

    /// The reason, in a sentence.
    package var description: String {
        switch self {
        case let .tooFewPoints(count, minimum):
            return "The USL fit needs throughput at \(minimum) or more distinct pool sizes, but got \(count). "
                + "Three coefficients from fewer sizes would fit the noise; sweep more pool sizes, "
                + "spread from 1 to beyond the expected peak."
        case .mismatchedLengths:
            return "The USL fit needs one throughput value per concurrency value, but the two lists differ in length."
        case .nonFinite:
            return "The USL fit needs finite values with concurrency > 0 and throughput ≥ 0 (not all zero). "
                + "Drop failed or empty trials before fitting."
        case let .negativeCoefficient(name, value):
            return
                "The best fit wants \(name) = \(Self.short(value)), below 0 beyond the measurement noise: only a curve that "
                + "scales faster than linearly fits these data, so they do not follow the Universal Scalability Law. "
                + "Typical causes are a sharp knee (a linear rise into a flat plateau: use the measured knee) or "
                + "warm-up and caching effects at small pool sizes (repeat them)."
        case let .peakOutsideData(peak, maxConcurrency):
            return "The fitted USL peaks at N* = \(Self.short(peak)), more than twice the largest measured concurrency "
                + "(\(Self.short(maxConcurrency))); refusing to extrapolate that far. Measure larger pool sizes to locate the peak."
        case .didNotConverge:
            return "The USL least-squares fit did not converge; the throughput curve may be too noisy or too "
                + "irregular for the model. Add repetitions or check the measurements."
        }
    }
}
