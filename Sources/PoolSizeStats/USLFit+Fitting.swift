extension USLFit {
    /// Fewest distinct concurrency levels `fit` accepts: twice the parameter count, so that
    /// each coefficient is pinned by more than one point.
    package static let minimumDistinctSizes = 6

    /// Least-squares fit of σ, κ, λ to measured (concurrency, throughput) pairs.
    ///
    /// 1. Start from the linearization N/X = 1/λ + (σ/λ)(N − 1) + (κ/λ)N(N − 1), an ordinary
    ///    least-squares problem (Gunther 2007, §5.2.3, without normalizing by X(1), which would
    ///    make the fit hostage to one noisy point).
    /// 2. Refine by Levenberg–Marquardt on the throughput residuals (Marquardt, J. SIAM 11(2),
    ///    1963, with his diagonal scaling), unconstrained first.
    /// 3. Bounds σ ∈ [0, 1], κ ≥ 0, λ > 0: a coefficient the unconstrained optimum puts below 0
    ///    by more than its 99 % t-uncertainty throws `.negativeCoefficient`; one below 0 within
    ///    noise, or negligible (it changes the model by < 1e-9 at the largest N), is fixed at 0 and
    ///    the rest refitted; σ > 1 is fixed at 1.
    /// 4. Standard errors are √diag(s²(JᵀJ)⁻¹), s² = SS_res/(n − 3), J the Jacobian of all three
    ///    coefficients at the solution (also for a coefficient held at a bound).
    ///
    /// A linear rise into a flat plateau (the ideal closed loop of `SizingFormula.idealThroughput`)
    /// is refused with a negative σ: the USL has no sharp corner, and its best imitation of one
    /// bends upward first. Use `Knee` for such curves.
    ///
    /// Does *not* check where the peak lies: call `validated(maxConcurrency:)` before
    /// recommending a size from `peakConcurrency`.
    package static func fit(concurrency: [Double], throughput: [Double]) throws(USLFitError) -> USLFit {
        guard concurrency.count == throughput.count else { throw .mismatchedLengths }
        guard !concurrency.isEmpty else { throw .tooFewPoints(count: 0, minimum: minimumDistinctSizes) }
        guard concurrency.allSatisfy({ $0.isFinite && $0 > 0 }),
            throughput.allSatisfy({ $0.isFinite && $0 >= 0 }),
            let scale = throughput.max(), scale > 0
        else { throw .nonFinite }
        let distinct = Set(concurrency).count
        guard distinct >= minimumDistinctSizes else {
            throw .tooFewPoints(count: distinct, minimum: minimumDistinctSizes)
        }

        // Throughput is scaled to a maximum of 1 so λ is O(1) like the other coefficients.
        let problem = USLProblem(n: concurrency, y: throughput.map { $0 / scale })
        let maxN = concurrency.max()!
        let effectAtMaxN = [maxN - 1, maxN * (maxN - 1), 0]  // |Δ denominator| per unit of σ, κ
        // Refusing is a strong claim, so "beyond noise" means outside a 99 % interval: a true
        // coefficient of 0 is then refused 0.5 % of the time instead of 2.5 %.
        let tCritical = StudentT.criticalValue(confidence: 0.99, degreesOfFreedom: max(1, concurrency.count - 3))

        var fixed: [Double?] = [nil, nil, nil]
        var p = problem.linearizedStart()
        var changed = true
        while changed {  // each round fixes σ or κ for good, so this runs at most three times
            guard
                let solution = problem.levenbergMarquardt(start: p, fixed: fixed)
                    ?? problem.levenbergMarquardt(start: problem.safeStart, fixed: fixed)
            else { throw .didNotConverge }
            p = solution
            let errors = problem.standardErrors(p)
            changed = false
            for (i, name) in [(0, "sigma"), (1, "kappa")] where fixed[i] == nil {
                if abs(p[i]) * effectAtMaxN[i] < 1e-9 {
                    fixed[i] = 0
                } else if p[i] < 0 {
                    if p[i] + tCritical * errors[i] < 0 { throw .negativeCoefficient(name: name, value: p[i]) }
                    fixed[i] = 0
                } else if i == 0, p[i] > 1 {
                    fixed[i] = 1
                } else {
                    continue
                }
                p[i] = fixed[i]!
                changed = true
            }
        }

        let errors = problem.standardErrors(p)
        let fitted = problem.model(p).map { $0 * scale }
        return USLFit(
            sigma: p[0], kappa: p[1], lambda: p[2] * scale,
            sigmaStandardError: errors[0], kappaStandardError: errors[1], lambdaStandardError: errors[2] * scale,
            rSquared: coefficientOfDetermination(observed: throughput, fitted: fitted)
        )
    }
}
