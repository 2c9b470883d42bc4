extension USLProblem {
    /// Levenberg–Marquardt minimisation of Σ residual² over the coefficients not in `fixed`
    /// (K. Levenberg, Q. Appl. Math. 2, 1944; D. W. Marquardt, J. SIAM 11(2), 1963).
    ///
    /// Each step solves (JᵀJ + μ·diag(JᵀJ))δ = −Jᵀr. The diag(JᵀJ) damping (Marquardt's) makes
    /// the step independent of the coefficients' units. Steps that put a pole of the model
    /// inside the data or do not lower the cost are rejected and μ grows tenfold.
    ///
    /// Converges when the scaled gradient vanishes, the relative cost reduction or the scaled
    /// step falls below ~1e-13, or no damping can lower the cost any further (a minimum to
    /// working precision). Returns nil when none of that happens within `maxIterations`.
    func levenbergMarquardt(start: [Double], fixed: [Double?], maxIterations: Int = 500) -> [Double]? {
        var p = start
        for i in 0..<3 { if let value = fixed[i] { p[i] = value } }
        let free = (0..<3).filter { fixed[$0] == nil }
        guard var r = residuals(p) else { return nil }
        guard !free.isEmpty else { return p }
        var cost = r.reduce(0) { $0 + $1 * $1 }
        let costFloor = 1e-30 * y.reduce(0) { $0 + $1 * $1 }
        var mu = 1e-3

        for _ in 0..<maxIterations {
            if cost <= costFloor { return p }
            let j = jacobian(p).map { row in free.map { row[$0] } }
            let (jtj, jtr) = LinearAlgebra.normalEquations(jacobian: j, residuals: r)
            let scaledGradient = free.indices.map { abs(jtr[$0]) / (jtj[$0][$0] * cost).squareRoot() }
            if scaledGradient.allSatisfy({ $0 < 1e-13 || $0.isNaN }) { return p }

            var accepted = false
            while !accepted {
                if mu > 1e20 { return p }  // no descent at any damping: at the minimum
                var damped = jtj
                for k in free.indices { damped[k][k] *= 1 + mu }
                guard let delta = LinearAlgebra.solveSymmetric(damped, jtr.map { -$0 }) else {
                    mu *= 10
                    continue
                }
                var candidate = p
                for (k, index) in free.enumerated() { candidate[index] += delta[k] }
                guard let newR = residuals(candidate) else {
                    mu *= 10
                    continue
                }
                let newCost = newR.reduce(0) { $0 + $1 * $1 }
                guard newCost < cost else {
                    mu *= 10
                    continue
                }
                let reduction = (cost - newCost) / cost
                let stepNorm = free.indices.reduce(0) { $0 + delta[$1] * delta[$1] * jtj[$1][$1] }
                let sizeNorm = free.enumerated().reduce(0) { $0 + p[$1.1] * p[$1.1] * jtj[$1.0][$1.0] }
                p = candidate
                r = newR
                cost = newCost
                mu = max(mu / 10, 1e-15)
                accepted = true
                if reduction < 1e-13 || stepNorm <= 1e-26 * sizeNorm { return p }
            }
        }
        return nil
    }
}
