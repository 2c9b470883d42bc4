import Foundation

/// Special functions behind the t distribution, kept internal and free of global state.
///
/// `lgamma` from the C library writes the global `signgam`, a data race when statistics are
/// computed on several threads, so the log-gamma here is Lanczos' approximation (g = 7, nine
/// coefficients; relative error below 1e-15 for positive arguments — C. Lanczos, SIAM J. Numer.
/// Anal. B 1, 1964; coefficients as published by P. Godfrey).
enum SpecialFunctions {
    private static let lanczos: [Double] = [
        0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905,
        -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
    ]

    /// ln Γ(x) for x > 0.
    static func logGamma(_ x: Double) -> Double {
        if x < 0.5 {
            // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
            return log(Double.pi / abs(sin(Double.pi * x))) - logGamma(1 - x)
        }
        let z = x - 1
        var sum = lanczos[0]
        for i in 1..<lanczos.count { sum += lanczos[i] / (z + Double(i)) }
        let t = z + 7.5
        return 0.5 * log(2 * Double.pi) + (z + 0.5) * log(t) - t + log(sum)
    }

    /// The regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1].
    ///
    /// Continued fraction evaluated with the modified Lentz method, switched to the symmetric
    /// form I_x(a,b) = 1 − I_{1−x}(b,a) where it converges fast (Press et al., Numerical Recipes,
    /// 3rd ed., §6.4). Accurate to about 1e-14 for the arguments the t distribution uses.
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * log(x) + b * log(1 - x)
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * betaContinuedFraction(x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * betaContinuedFraction(1 - x, a: b, b: a) / b
    }

    private static func betaContinuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        let epsilon = 1e-16
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...10_000 {
            let m = Double(m)
            let m2 = 2 * m
            // Even step.
            var numerator = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            // Odd step.
            numerator = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            result *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return result
    }

    /// Standard normal CDF Φ(z) = erfc(−z/√2)/2 (erfc keeps the far tails accurate).
    static func normalCDF(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
}
