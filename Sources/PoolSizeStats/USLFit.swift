/// Neil Gunther's Universal Scalability Law, X(N) = λN / (1 + σ(N − 1) + κN(N − 1))
/// (N. J. Gunther, "A Simple Capacity Model of Massively Parallel Transaction Systems",
/// CMG 1993; *Guerrilla Capacity Planning*, Springer 2007, ch. 4–6).
///
/// λ is the throughput of one worker, σ the contention (serialized fraction, Amdahl's law when
/// κ = 0) and κ the coherency cost (pairwise crosstalk, which makes throughput retrograde).
/// The sizing formula assumes σ = κ = 0; a fitted σ or κ says how far a lock or shared state
/// pulls the real pool away from it.
public struct USLFit: Equatable, Sendable, Codable {
    /// σ, contention: the serialized share of the work.
    public let sigma: Double
    /// κ, coherency: the crosstalk that makes throughput fall.
    public let kappa: Double
    /// λ, throughput of one worker.
    public let lambda: Double
    /// Standard error of σ.
    public let sigmaStandardError: Double
    /// Standard error of κ.
    public let kappaStandardError: Double
    /// Standard error of λ.
    public let lambdaStandardError: Double
    /// 1 − SS_res/SS_tot on the (unnormalized) throughput values.
    public let rSquared: Double
    /// N* = √((1 − σ)/κ) when κ > 0; nil when κ = 0 (throughput never turns down). Below 1 when
    /// throughput falls from the first worker on (σ at its bound of 1).
    public let peakConcurrency: Double?

    /// A fit from its coefficients; N* follows from σ and κ.
    public init(
        sigma: Double, kappa: Double, lambda: Double,
        sigmaStandardError: Double, kappaStandardError: Double, lambdaStandardError: Double,
        rSquared: Double
    ) {
        self.sigma = sigma
        self.kappa = kappa
        self.lambda = lambda
        self.sigmaStandardError = sigmaStandardError
        self.kappaStandardError = kappaStandardError
        self.lambdaStandardError = lambdaStandardError
        self.rSquared = rSquared
        // dX/dN = 0 ⇔ 1 − σ − κN² = 0.
        peakConcurrency = kappa > 0 ? ((1 - sigma) / kappa).squareRoot() : nil
    }

    /// Modelled throughput at concurrency `n`.
    public func throughput(at n: Double) -> Double {
        lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))
    }

    /// Modelled throughput at the peak, or nil when there is no peak.
    public var peakThroughput: Double? { peakConcurrency.map(throughput(at:)) }

    /// Returns the fit unchanged, or throws `.peakOutsideData` when N* lies beyond twice the
    /// largest measured concurrency: a peak that far out is an extrapolation of a tiny κ, not a
    /// measurement. `fit` does not apply this check, so callers that only want the
    /// coefficients (or a plot) can still have them; recommendations should use `validated`.
    package func validated(maxConcurrency: Double) throws(USLFitError) -> USLFit {
        if let peak = peakConcurrency, peak > 2 * maxConcurrency {
            throw .peakOutsideData(peak: peak, maxConcurrency: maxConcurrency)
        }
        return self
    }

    /// The coefficient of determination R² = 1 − SS_res/SS_tot, SS_res = Σ(yᵢ − ŷᵢ)²,
    /// SS_tot = Σ(yᵢ − ȳ)². Computed on the values as given — no normalization, no intercept
    /// assumption (criterion.rs reported a wrong R² for years; PR #896). When SS_tot = 0 (constant
    /// data) it is 1 for a fit exact to rounding (SS_res ≤ 1e-20·Σy²) and 0 otherwise; NaN for
    /// empty or unequal-length input.
    public static func coefficientOfDetermination(observed: [Double], fitted: [Double]) -> Double {
        guard !observed.isEmpty, observed.count == fitted.count else { return .nan }
        let mean = observed.reduce(0, +) / Double(observed.count)
        let residual = zip(observed, fitted).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        let total = observed.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        if total == 0 {
            let magnitude = observed.reduce(0) { $0 + $1 * $1 }
            return residual <= 1e-20 * magnitude ? 1 : 0
        }
        return 1 - residual / total
    }
}
