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

    /// The gunicorn service: 8 server threads, flat from 8 clients at 352/s and creeping
    /// to 392/s at 1024 (+11% over 7 doublings, about 1.5% a doubling). Three repetitions of
    /// spread 2 at each size: mean m, samples m − 2, m, m + 2 (SE 2/√3 = 1.155).
    /// Near the peak: threshold 0.95 × 392 = 372.4; 64 (367, upper 367 + 4.303 × 1.155 = 371.97)
    /// misses it, 128 (372, upper 376.97) reaches it: the old rule's knee was 128.
    /// Flattened: from 4 (176) to 8 (352) is +100% in one doubling (past 1.10 × 176 = 193.6):
    /// rising. From 8 on the best mean gains at most 357/352 = 1.4% within a doubling (allowed
    /// 5%), 362/352 over two (allowed 1.05² = 10.25%), …, 392/352 = 11.4% over seven (allowed
    /// 40.7%), and likewise from every larger size: the knee is 8, 352/s.
    @Test func aSlowCreepAfterTheKneeDoesNotMoveIt() throws {
        let means: [Int: Double] = [
            1: 44, 2: 88, 4: 176, 8: 352, 16: 357, 32: 362, 64: 367, 128: 372, 256: 377, 512: 384, 1024: 392,
        ]
        let points = means.map { CurvePoint(size: $0.key, samples: [$0.value - 2, $0.value, $0.value + 2]) }
        let knee = try #require(Knee.find(points))
        #expect(knee.size == 8)
        #expect(knee.throughput == 352)
        #expect(knee.basis == .flattened)
        #expect(knee.peakSize == 1024)
        #expect(knee.peakThroughput == 392)
        // Single samples (the search's bracket) give the same answer.
        #expect(try #require(Knee.find(curve(means))).size == 8)
    }

    /// The ideal closed loop with a creep after its kink: X = min(250 N, 2000) up to 8, then +1%
    /// a doubling (2020 at 16, 2040 at 32). Near the peak 0.95 × 2040 = 1938: 8 (2000) qualifies;
    /// flattened: 7 → 8 is +14.3% (past 1.10 × 1750 = 1925): rising; from 8 on +1% a doubling.
    /// Both rules say 8, as the sharp knee always was.
    @Test func aSharpKneeStaysWhereItWas() throws {
        var means = Dictionary(uniqueKeysWithValues: (1...8).map { ($0, 250.0 * Double($0)) })
        means[16] = 2020
        means[32] = 2040
        let knee = try #require(Knee.find(curve(means)))
        #expect(knee.size == 8)
        #expect(knee.basis == .nearPeak)
        #expect(knee.peakSize == 32)
    }

    /// A plateau of noise alone, one sample a size: 1000 from 8 on, measured 985…1055.
    /// Near the peak: 0.95 × 1055 = 1002.25; 8 (1000) and 16 (985) miss it, 32 (1030) is the
    /// old rule's knee. Flattened: 4 → 8 doubles (rising); from 8 the best mean so far (1000 up
    /// to 16, 1030 from 32, 1055 from 128) is never beaten by more than 5% within a doubling
    /// (1030/1000 = 3%, 1055/1030 = 2.4%) nor by more than 1.05^d over d doublings: the knee is 8.
    @Test func aNoisyPlateauKneesAtItsStart() throws {
        let means: [Int: Double] = [
            1: 125, 2: 250, 4: 500, 8: 1000, 16: 985, 32: 1030, 64: 1012, 128: 1055, 256: 990, 512: 1040,
            1024: 1008,
        ]
        let knee = try #require(Knee.find(curve(means)))
        #expect(knee.size == 8)
        #expect(knee.basis == .flattened)
        #expect(knee.peakSize == 128)
    }

    /// A rise past the tolerance that the repetitions cannot tell from noise does not count;
    /// one they can tell does. Size 8 against 16, 5% allowed in one doubling (16 × 1.05 cutoff
    /// 1.05 × 1000 = 1050):
    /// - 8 [900, 1000, 1100] (SE 57.7), 16 [1000, 1070, 1140] (SE 40.4): excess 1070 − 1050 = 20;
    ///   Welch SE √(40.4² + (1.05 × 57.7)²) = 72.9, 3 degrees of freedom (t 3.182): 232 > 20,
    ///   not told. 16 is not past 1.10 × 1000 either, so the knee is 8.
    /// - 8 [995, 1000, 1005] (SE 2.89), 16 [1065, 1070, 1075]: Welch SE 4.19, 3 degrees of
    ///   freedom: 13.3 < 20, told: 8 still rises and the knee is 16.
    @Test func onlyARiseTheRepetitionsCanTellCounts() throws {
        let base = curve([1: 125, 2: 250, 4: 500, 32: 1060])
        let noisy =
            base + [
                CurvePoint(size: 8, samples: [900, 1000, 1100]), CurvePoint(size: 16, samples: [1000, 1070, 1140]),
            ]
        #expect(try #require(Knee.find(noisy, gainPerDoubling: 0.05)).size == 8)
        let tight =
            base + [
                CurvePoint(size: 8, samples: [995, 1000, 1005]), CurvePoint(size: 16, samples: [1065, 1070, 1075]),
            ]
        #expect(try #require(Knee.find(tight)).size == 16)
    }

    /// A curve that pauses and climbs again is followed to the top: 100 at 4 and 8, then 200 at
    /// 32 (+100% over two doublings from 8, allowed 10.25%): the pause is no knee.
    /// But a late step a slow creep's allowance covers does not move it: flat 357/s from 8 to
    /// 128, then 393/s at 256 (+10% in that one doubling, as the gunicorn service measured);
    /// from 8 that is +10% over five doublings, allowed 1.05⁵ = 27.6%: the knee is 8.
    @Test func aPauseBeforeAnotherClimbIsNoKnee() throws {
        let knee = try #require(Knee.find(curve([1: 25, 2: 50, 4: 100, 8: 100, 16: 150, 32: 200, 64: 201])))
        #expect(knee.size == 32)
        #expect(knee.basis == .nearPeak)
        let step = try #require(
            Knee.find(curve([1: 44, 2: 88, 4: 176, 8: 357, 16: 355, 32: 353, 64: 353, 128: 358, 256: 393, 512: 392])))
        #expect(step.size == 8)
        #expect(step.basis == .flattened)
    }

    @Test func singlePointIsItsOwnKnee() throws {
        let knee = try #require(Knee.find([CurvePoint(size: 12, samples: [5, 6, 7])]))
        #expect(knee == Knee(size: 12, throughput: 6, peakSize: 12, peakThroughput: 6, tolerance: 0.05))
    }
}
