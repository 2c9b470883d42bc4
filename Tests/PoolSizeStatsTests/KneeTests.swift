import Testing
import PoolSizeStats

@Suite struct KneeTests {
    /// One sample per size.
    private func curve(_ means: [Int: Double]) -> [CurvePoint] {
        means.sorted { $0.key < $1.key }.map { CurvePoint(size: $0.key, samples: [$0.value]) }
    }

    @Test func emptyInputHasNoKnee() {
        #expect(Knee.find([]) == nil)
        #expect(Knee.find([CurvePoint(size: 4, samples: [])]) == nil)
    }

    @Test func invalidToleranceHasNoKnee() {
        #expect(Knee.find(curve([1: 1]), tolerance: -0.1) == nil)
        #expect(Knee.find(curve([1: 1]), tolerance: 1) == nil)
    }

    @Test func linearRiseThenPlateauKneesAtTheKink() throws {
        // Ideal closed loop, 2 cores, W/C = 3: X = min(250N, 2000), kink at N = 8.
        // 5 % tolerance: threshold 0.95 × 2000 = 1900; X(7) = 1750 < 1900 ≤ X(8) → knee 8.
        let points = (1...16).map { n in
            CurvePoint(
                size: n,
                samples: [
                    SizingFormula.idealThroughput(
                        poolSize: Double(n), cores: 2, waitSeconds: 0.003, cpuSeconds: 0.001)
                ])
        }
        let knee = try #require(Knee.find(points))
        #expect(knee.size == 8)
        #expect(isClose(knee.throughput, 2000, relative: 1e-12))
        #expect(knee.peakSize == 8)  // 8…16 tie at 2000: the smallest is the peak
        #expect(isClose(knee.peakThroughput, 2000, relative: 1e-12))
        #expect(knee.tolerance == 0.05)
        #expect(try #require(Knee.find(points, tolerance: 0)).size == 8)
    }

    private let gentle: [Int: Double] = [1: 100, 2: 190, 3: 260, 4: 300, 5: 310, 6: 315, 7: 316, 8: 312]

    @Test func toleranceSelectsFirstSizeWithinFivePercentOfPeak() throws {
        // Peak 316 at 7; threshold 0.95 × 316 = 300.2: size 4 (300) misses by 0.2, size 5 (310) is in.
        let knee = try #require(Knee.find(curve(gentle)))
        #expect(knee.size == 5)
        #expect(knee.throughput == 310)
        #expect(knee.peakSize == 7)
        #expect(knee.peakThroughput == 316)
        #expect(isClose(knee.threshold, 300.2, within: 1e-9))
        // Zero tolerance: only the peak itself qualifies.
        #expect(try #require(Knee.find(curve(gentle), tolerance: 0)).size == 7)
        // 20 % tolerance: threshold 252.8 → size 3 (260).
        #expect(try #require(Knee.find(curve(gentle), tolerance: 0.2)).size == 3)
    }

    @Test func noisySamplesLetAnEarlierSizeQualify() throws {
        // Same means as `gentle`, but sizes 3 and 4 measured three times with spread:
        // size 4: [290, 300, 310], mean 300, SD 10, SE 10/√3 = 5.7735, t(0.975, 2) = 4.3027
        //   → upper = 300 + 24.84 = 324.84 ≥ 300.2: not distinguishable from the threshold → knee 4.
        // size 3: [258, 260, 262], mean 260, SD 2, upper = 260 + 4.3027 × 2/√3 = 264.97 < 300.2.
        var points = curve(gentle.filter { $0.key != 3 && $0.key != 4 })
        points.append(CurvePoint(size: 3, samples: [258, 260, 262]))
        points.append(CurvePoint(size: 4, samples: [290, 300, 310]))
        let knee = try #require(Knee.find(points))
        #expect(knee.size == 4)
        #expect(knee.throughput == 300)
        #expect(knee.peakSize == 7)
        // The interval has to reach the threshold: [299.9, 300, 300.1] (SD 0.1) → upper
        // 300 + 4.3027 × 0.1/√3 = 300.248 ≥ 300.2 qualifies; [299.95, 300, 300.05] (SD 0.05) →
        // upper 300.124 < 300.2 does not, and the knee moves back to 5.
        points.removeLast()
        points.append(CurvePoint(size: 4, samples: [299.9, 300, 300.1]))
        #expect(try #require(Knee.find(points)).size == 4)
        points.removeLast()
        points.append(CurvePoint(size: 4, samples: [299.95, 300, 300.05]))
        #expect(try #require(Knee.find(points)).size == 5)
    }

    @Test func spreadCannotExcuseALargeShortfall() throws {
        // Peak 316 at 7; size 4 measured [200, 300, 336]: mean 278.67, SD 70.9, upper
        // 278.67 + 4.3027 × 70.9/√3 = 454.8 ≥ 300.2, but its mean is under 0.9 × 316 = 284.4.
        var points = curve(gentle.filter { $0.key != 4 })
        points.append(CurvePoint(size: 4, samples: [200, 300, 336]))
        #expect(try #require(Knee.find(points)).size == 5)
    }

    @Test func unsortedInputAndDuplicateSizesAreMerged() throws {
        // Size 4 appears twice: [290] + [300, 310] merge into [290, 300, 310] as in the noisy test.
        var points = curve(gentle.filter { $0.key != 4 }).reversed() as [CurvePoint]
        points.insert(CurvePoint(size: 4, samples: [290]), at: 2)
        points.append(CurvePoint(size: 4, samples: [300, 310]))
        let knee = try #require(Knee.find(points))
        #expect(knee.size == 4)
        #expect(knee.throughput == 300)
        #expect(knee.peakSize == 7)
    }

    @Test func singlePointIsItsOwnKnee() throws {
        let knee = try #require(Knee.find([CurvePoint(size: 12, samples: [5, 6, 7])]))
        #expect(knee == Knee(size: 12, throughput: 6, peakSize: 12, peakThroughput: 6, tolerance: 0.05))
    }
}
