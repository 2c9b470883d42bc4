/// The USL least-squares problem on normalized throughput; coefficients are `[σ, κ, λ]`.
/// Internal: `USLFit.fit` is the face the other targets call.
struct USLProblem {
    let n: [Double]
    let y: [Double]

    /// Model values at each concurrency (`residuals` is the checked version).
    func model(_ p: [Double]) -> [Double] {
        n.map { p[2] * $0 / denominator(p, $0) }
    }

    private func denominator(_ p: [Double], _ n: Double) -> Double {
        1 + p[0] * (n - 1) + p[1] * n * (n - 1)
    }

    /// Residuals (model − observed), or nil when the coefficients put a pole inside the data.
    func residuals(_ p: [Double]) -> [Double]? {
        guard n.allSatisfy({ denominator(p, $0) > 0 }) else { return nil }
        let r = zip(model(p), y).map { $0 - $1 }
        return r.allSatisfy(\.isFinite) ? r : nil
    }

    /// Rows ∂X/∂(σ, κ, λ): −λN(N−1)/D², −λN²(N−1)/D², N/D.
    func jacobian(_ p: [Double]) -> [[Double]] {
        n.map { n in
            let d = denominator(p, n)
            let dSigma = -p[2] * n * (n - 1) / (d * d)
            return [dSigma, dSigma * n, n / d]
        }
    }

    /// σ = κ = 0 and λ = the best per-worker throughput seen: never a pole for N > 0.
    var safeStart: [Double] { [0, 0, zip(y, n).map { $0 / $1 }.max() ?? 1] }

    /// Start values from ordinary least squares on N/X = a + b(N − 1) + c·N(N − 1), with
    /// λ = 1/a, σ = b/a, κ = c/a; falls back to (0, 0, max X/N) when that is unusable.
    func linearizedStart() -> [Double] {
        let fallback = safeStart
        let rows = zip(n, y).filter { $0.1 > 0 }
        let design = rows.map { n, _ in [1, n - 1, n * (n - 1)] }
        let target = rows.map { n, y in n / y }
        let (ata, atb) = LinearAlgebra.normalEquations(jacobian: design, residuals: target)
        guard let abc = LinearAlgebra.solveSymmetric(ata, atb), abc[0] > 0 else { return fallback }
        let start = [abc[1] / abc[0], abc[2] / abc[0], 1 / abc[0]]
        return residuals(start) == nil ? fallback : start
    }

    /// √diag(s²(JᵀJ)⁻¹) at `p`; +∞ where JᵀJ is singular (a coefficient the data cannot pin).
    func standardErrors(_ p: [Double]) -> [Double] {
        let r = residuals(p) ?? []
        let dof = Double(n.count - 3)
        guard r.count == n.count, dof > 0 else { return [.infinity, .infinity, .infinity] }
        let s2 = r.reduce(0) { $0 + $1 * $1 } / dof
        let (jtj, _) = LinearAlgebra.normalEquations(jacobian: jacobian(p), residuals: r)
        guard let inverse = LinearAlgebra.inverseSymmetric(jtj) else { return [.infinity, .infinity, .infinity] }
        return (0..<3).map { (s2 * max(0, inverse[$0][$0])).squareRoot() }
    }
}
