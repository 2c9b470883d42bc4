import Testing
import PoolSizeStats

@Suite struct USLFitTests {
    private func usl(_ n: Double, sigma: Double, kappa: Double, lambda: Double) -> Double {
        lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))
    }

    @Test func recoversCoefficientsFromNoiseFreeData() throws {
        let n = (1...32).map(Double.init)
        let x = n.map { usl($0, sigma: 0.05, kappa: 0.001, lambda: 1000) }
        let fit = try USLFit.fit(concurrency: n, throughput: x)
        #expect(isClose(fit.sigma, 0.05, relative: 0.02))
        #expect(isClose(fit.kappa, 0.001, relative: 0.02))
        #expect(isClose(fit.lambda, 1000, relative: 0.02))
        #expect(isClose(fit.rSquared, 1, within: 1e-9))
        // N* = √((1 − σ)/κ) = √(0.95/0.001) = √950 = 30.822070.
        #expect(isClose(try #require(fit.peakConcurrency), 30.822070, within: 1e-3))
        #expect(isClose(fit.throughput(at: 16), usl(16, sigma: 0.05, kappa: 0.001, lambda: 1000), relative: 1e-6))
    }

    @Test func recoversCoefficientsFromNoisyDataWithinTheirErrors() throws {
        // ±1 % deterministic "noise" (alternating signs, varying size) around σ = 0.1, κ = 0.002,
        // λ = 50 at N = 1…24, two repetitions per size.
        let sizes = (1...24).map(Double.init)
        var n: [Double] = []
        var x: [Double] = []
        for (i, size) in sizes.enumerated() {
            for rep in 0..<2 {
                let wiggle = 0.01 * (i % 3 == 0 ? 1 : -0.5) * (rep == 0 ? 1 : -1) * (1 + Double(i % 5) / 4)
                n.append(size)
                x.append(usl(size, sigma: 0.1, kappa: 0.002, lambda: 50) * (1 + wiggle))
            }
        }
        let fit = try USLFit.fit(concurrency: n, throughput: x)
        #expect(fit.sigmaStandardError > 0 && fit.kappaStandardError > 0 && fit.lambdaStandardError > 0)
        #expect(abs(fit.sigma - 0.1) < 3 * fit.sigmaStandardError)
        #expect(abs(fit.kappa - 0.002) < 3 * fit.kappaStandardError)
        #expect(abs(fit.lambda - 50) < 3 * fit.lambdaStandardError)
        #expect(fit.rSquared > 0.99 && fit.rSquared < 1)
    }

    /// Cisco benchmark from B. Schwartz, *Practical Scalability Analysis with the Universal
    /// Scalability Law* (VividCortex, 2015), as transcribed with the book's fitted values in
    /// codahale/usl4j, src/test/java/com/codahale/usl4j/tests/ModelTest.java: σ = 0.02671591,
    /// κ = 7.690945e-4, λ = 995.6486, N_max = 35, X_max = 12341 (X at N = 35). The book gives 7
    /// significant digits; independent least-squares fits agree with it to ~2e-6, hence 1e-5.
    @Test func reproducesPublishedCiscoFit() throws {
        let cisco: [Double] = [
            955.16, 1878.91, 2688.01, 3548.68, 4315.54, 5130.43, 5931.37, 6531.08,
            7219.8, 7867.61, 8278.71, 8646.7, 9047.84, 9426.55, 9645.37, 9897.24,
            10097.6, 10240.5, 10532.39, 10798.52, 11151.43, 11518.63, 11806, 12089.37,
            12075.41, 12177.29, 12211.41, 12158.93, 12155.27, 12118.04, 12140.4, 12074.39,
        ]
        let n = (1...32).map(Double.init)
        let fit = try USLFit.fit(concurrency: n, throughput: cisco).validated(maxConcurrency: 32)
        #expect(isClose(fit.sigma, 0.02671591, relative: 1e-5))
        #expect(isClose(fit.kappa, 7.690945e-4, relative: 1e-5))
        #expect(isClose(fit.lambda, 995.6486, relative: 1e-5))
        // N* = √((1 − 0.02671591)/7.690945e-4) = √1265.5 = 35.57; the book reports ⌊N*⌋ = 35.
        let peak = try #require(fit.peakConcurrency)
        #expect(isClose(peak, 35.5738, within: 1e-3))
        #expect(isClose(fit.throughput(at: 35), 12341, relative: 2e-4))
        // R² recomputed here from the fitted curve, on the raw (not normalized) throughput.
        let mean = cisco.reduce(0, +) / 32
        let ssRes = zip(n, cisco).reduce(0) {
            $0 + ($1.1 - fit.throughput(at: $1.0)) * ($1.1 - fit.throughput(at: $1.0))
        }
        let ssTot = cisco.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        #expect(isClose(fit.rSquared, 1 - ssRes / ssTot, within: 1e-12))
        #expect(isClose(fit.rSquared, 0.99715, within: 1e-5))
    }

    /// The usl R package's own regression test (smoeding/usl, tests/coef.R and coef.Rout.save):
    /// six points generated from α = β = 0.02 (its names for σ, κ) and rounded to 4 decimals; the
    /// package's fit prints 0.02, 0.02 and γ (λ) = 1.00 at 3 significant digits.
    @Test func reproducesUSLPackageCoefficientTest() throws {
        let fit = try USLFit.fit(
            concurrency: [1, 2, 4, 6, 8, 10],
            throughput: [1, 1.8868, 3.0769, 3.5294, 3.5398, 3.3557]
        )
        #expect(isClose(fit.sigma, 0.0200, within: 0.00005))
        #expect(isClose(fit.kappa, 0.0200, within: 0.00005))
        #expect(isClose(fit.lambda, 1.00, within: 0.005))
        // N* = √(0.98/0.02) = 7: inside the data, so validation passes.
        #expect(isClose(try #require(fit.peakConcurrency), 7, within: 0.01))
        #expect(try fit.validated(maxConcurrency: 10) == fit)
    }

    @Test func linearDataHasNoPeak() throws {
        // X = 100·N: σ = κ = 0, no contention, no peak — a valid fit, not an error.
        let n = (1...10).map(Double.init)
        let fit = try USLFit.fit(concurrency: n, throughput: n.map { 100 * $0 })
        #expect(fit.sigma == 0)
        #expect(fit.kappa == 0)
        #expect(isClose(fit.lambda, 100, relative: 1e-9))
        #expect(fit.peakConcurrency == nil)
        #expect(fit.peakThroughput == nil)
        #expect(isClose(fit.rSquared, 1, within: 1e-12))
        #expect(try fit.validated(maxConcurrency: 10) == fit)
    }

    @Test func amdahlDataHasContentionButNoPeak() throws {
        // κ = 0, σ = 0.1: Amdahl's law, throughput approaches λ/σ = 500 without turning down.
        let n = (1...16).map(Double.init)
        let fit = try USLFit.fit(concurrency: n, throughput: n.map { usl($0, sigma: 0.1, kappa: 0, lambda: 50) })
        #expect(isClose(fit.sigma, 0.1, relative: 1e-6))
        #expect(fit.kappa == 0)
        #expect(fit.peakConcurrency == nil)
    }

    @Test func refusesTooFewDistinctSizes() {
        let n: [Double] = [1, 2, 4, 8, 16]
        #expect(throws: USLFitError.tooFewPoints(count: 5, minimum: 6)) {
            try USLFit.fit(concurrency: n, throughput: n.map { 10 * $0 })
        }
        // Repetitions do not count as sizes: 10 points at 5 sizes.
        #expect(throws: USLFitError.tooFewPoints(count: 5, minimum: 6)) {
            try USLFit.fit(concurrency: n + n, throughput: (n + n).map { 10 * $0 })
        }
        let message = USLFitError.tooFewPoints(count: 5, minimum: 6).description
        #expect(message.contains("6 or more distinct pool sizes, but got 5"))
    }

    @Test func refusesMalformedInput() {
        #expect(throws: USLFitError.mismatchedLengths) {
            try USLFit.fit(concurrency: [1, 2, 3, 4, 5, 6], throughput: [1, 2, 3])
        }
        #expect(throws: USLFitError.nonFinite) {
            try USLFit.fit(concurrency: [1, 2, 3, 4, 5, 6], throughput: [1, 2, .nan, 4, 5, 6])
        }
        #expect(throws: USLFitError.nonFinite) {
            try USLFit.fit(concurrency: [0, 1, 2, 3, 4, 5], throughput: [0, 1, 2, 3, 4, 5])
        }
    }

    @Test func refusesSuperlinearData() {
        // σ = −0.05: throughput grows faster than N (X(8) = 8λ/0.65), which the USL cannot express.
        let n = (1...8).map(Double.init)
        let x = n.map { usl($0, sigma: -0.05, kappa: 0, lambda: 10) }
        do {
            _ = try USLFit.fit(concurrency: n, throughput: x)
            Issue.record("expected negativeCoefficient")
        } catch {
            guard case let .negativeCoefficient(name, value) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(name == "sigma")
            #expect(isClose(value, -0.05, within: 1e-6))
            #expect(error.description.contains("do not follow the Universal Scalability Law"))
        }
    }

    @Test func refusesTheIdealClosedLoopKink() {
        // X = min(250·N, 2000) (2 cores, W/C = 3) at N = 1…16 has a corner the USL cannot make; its
        // least-squares imitation bends upward first (σ ≈ −0.059), far outside the fit's noise.
        let n = (1...16).map(Double.init)
        let x = n.map { SizingFormula.idealThroughput(poolSize: $0, cores: 2, waitSeconds: 0.003, cpuSeconds: 0.001) }
        do {
            _ = try USLFit.fit(concurrency: n, throughput: x)
            Issue.record("expected negativeCoefficient")
        } catch {
            guard case let .negativeCoefficient(name, value) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(name == "sigma")
            #expect(value < -0.05 && value > -0.07)
        }
    }

    @Test func constantThroughputIsPureContention() throws {
        // X(N) = 500 for all N is the USL with σ = 1, κ = 0: λN/(1 + (N − 1)) = λ.
        let n = (1...8).map(Double.init)
        let fit = try USLFit.fit(concurrency: n, throughput: n.map { _ in 500 })
        #expect(isClose(fit.sigma, 1, within: 1e-9))
        #expect(fit.kappa == 0)
        #expect(isClose(fit.lambda, 500, relative: 1e-12))
        #expect(fit.rSquared == 1)  // SS_tot = 0 and the fit is exact to rounding
    }

    @Test func refusesToExtrapolateAFarPeak() throws {
        // σ = 0.02, κ = 1e-5 measured at N = 1…8: N* = √(0.98/1e-5) = 313.05, far beyond 2 × 8.
        let n = (1...8).map(Double.init)
        let fit = try USLFit.fit(concurrency: n, throughput: n.map { usl($0, sigma: 0.02, kappa: 1e-5, lambda: 100) })
        #expect(isClose(try #require(fit.peakConcurrency), 313.05, within: 0.05))
        do {
            _ = try fit.validated(maxConcurrency: 8)
            Issue.record("expected peakOutsideData")
        } catch {
            guard case let .peakOutsideData(peak, maxConcurrency) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(isClose(peak, 313.05, within: 0.05))
            #expect(maxConcurrency == 8)
        }
        // Measured up to 160 (N* ≤ 2 × 160) the same peak would be accepted.
        #expect(try fit.validated(maxConcurrency: 160) == fit)
    }

    @Test func rSquaredByHand() {
        // y = [1,2,3,4], ŷ = [1.5,2,2.5,4]: SS_res = 0.25+0+0.25+0 = 0.5; ȳ = 2.5,
        // SS_tot = 2.25+0.25+0.25+2.25 = 5 → R² = 1 − 0.5/5 = 0.9.
        #expect(
            isClose(
                USLFit.coefficientOfDetermination(observed: [1, 2, 3, 4], fitted: [1.5, 2, 2.5, 4]), 0.9, within: 1e-15)
        )
        // A fit worse than the mean goes negative: ŷ = [4,3,2,1] → SS_res = 9+1+1+9 = 20 → 1 − 20/5 = −3.
        #expect(USLFit.coefficientOfDetermination(observed: [1, 2, 3, 4], fitted: [4, 3, 2, 1]) == -3)
        // Constant data: 1 for a perfect fit, 0 otherwise.
        #expect(USLFit.coefficientOfDetermination(observed: [2, 2], fitted: [2, 2]) == 1)
        #expect(USLFit.coefficientOfDetermination(observed: [2, 2], fitted: [2, 3]) == 0)
        #expect(USLFit.coefficientOfDetermination(observed: [2, 2], fitted: [2, 2.0000000000000004]) == 1)
    }
}

@Suite struct USLEmptyInputTests {
    /// A header-only file gives no points: too few sizes, not "non-finite values".
    @Test func noPointsAreTooFewPoints() {
        #expect(throws: USLFitError.tooFewPoints(count: 0, minimum: 6)) {
            try USLFit.fit(concurrency: [], throughput: [])
        }
    }
}
