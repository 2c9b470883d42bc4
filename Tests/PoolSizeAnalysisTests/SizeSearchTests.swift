import PoolSizeAnalysis
import PoolSizeModel
import PoolSizeStats
import Testing
import Foundation

/// A throughput curve of a closed pool, min(N / (C + W), cores / C) tasks per second, with
/// ±`noise` multiplicative noise drawn from a seeded generator (SplitMix64), and an optional
/// loss per thread past the knee (oversubscription).
struct SyntheticCurve {
    let cpuMicroseconds: Double
    let waitMicroseconds: Double
    let cores: Int
    var noise = 0.02
    var lossPerThread = 0.0
    var state: UInt64

    init(cpu: Double, wait: Double, cores: Int, noise: Double = 0.02, lossPerThread: Double = 0, seed: UInt64 = 7) {
        cpuMicroseconds = cpu
        waitMicroseconds = wait
        self.cores = cores
        self.noise = noise
        self.lossPerThread = lossPerThread
        state = seed
    }

    /// Where the ideal curve stops rising: cores × (1 + W/C).
    var knee: Double { Double(cores) * (1 + waitMicroseconds / cpuMicroseconds) }

    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }

    mutating func sample(_ size: Int) -> Double {
        let ideal = min(Double(size) / (cpuMicroseconds + waitMicroseconds), Double(cores) / cpuMicroseconds) * 1e6
        let loss = max(0, 1 - lossPerThread * max(0, Double(size) - knee))
        return ideal * loss * (1 + noise * (2 * uniform() - 1))
    }
}

@Suite struct SizeSearchTests {
    /// The built-in workloads' shapes on 2 cores, and a wait-heavy one (W/C 40).
    static let shapes: [(name: String, cpu: Double, wait: Double)] = [
        ("cpu", 2000, 0), ("io", 1000, 15000), ("mixed", 4000, 8000), ("wait-heavy", 500, 20000),
    ]

    /// The knee of the full auto grid (3 repetitions each) and of the search, on the same
    /// curve and noise, for several seeds.
    static func compare(cpu: Double, wait: Double, cores: Int, seed: UInt64, loss: Double = 0) -> (
        grid: Int, search: Int, step: Int, gridTrials: Int, searchTrials: Int
    ) {
        let prediction = SizingFormula.queueCount(cores: Double(cores), targetUtilization: 1, waitCPURatio: wait / cpu)
        var curve = SyntheticCurve(cpu: cpu, wait: wait, cores: cores, lossPerThread: loss, seed: seed)
        let grid = SizeGrid.auto(prediction: prediction, cores: cores)
        let gridPoints = grid.map { size in CurvePoint(size: size, samples: (0..<3).map { _ in curve.sample(size) }) }
        let gridKnee = Knee.find(gridPoints, tolerance: 0.05)!.size
        let search = SizeSearch(prediction: prediction, cores: cores, tolerance: 0.05, repetitions: 3)
        let samples = search.simulate { curve.sample($0) }
        let searchKnee = Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) }, tolerance: 0.05)!.size
        // One size step: the grid's neighbour spacing at its knee.
        let below = grid.filter { $0 < gridKnee }.max() ?? gridKnee
        let step = max(search.step(at: gridKnee), gridKnee - below, 1)
        return (gridKnee, searchKnee, step, search.gridTrials, samples.values.map(\.count).reduce(0, +))
    }

    @Test(arguments: shapes.indices) func searchFindsTheGridsKneeWithFewerTrials(_ index: Int) {
        let shape = Self.shapes[index]
        for seed in UInt64(1)...20 {
            let result = Self.compare(cpu: shape.cpu, wait: shape.wait, cores: 2, seed: seed)
            #expect(
                abs(result.grid - result.search) <= result.step,
                "\(shape.name) seed \(seed): grid knee \(result.grid), search knee \(result.search)")
            #expect(
                result.searchTrials < result.gridTrials,
                "\(shape.name) seed \(seed): \(result.searchTrials) trials against the grid's \(result.gridTrials)")
        }
    }

    @Test(arguments: shapes.indices) func oversubscriptionLossDoesNotMoveTheKnee(_ index: Int) {
        let shape = Self.shapes[index]
        for seed in UInt64(1)...10 {
            let result = Self.compare(cpu: shape.cpu, wait: shape.wait, cores: 2, seed: seed, loss: 0.002)
            #expect(
                abs(result.grid - result.search) <= result.step,
                "\(shape.name) seed \(seed): grid knee \(result.grid), search knee \(result.search)")
        }
    }

    /// A knee well past the formula, as CPU bursts colliding give (mixed, io-jitter): a smooth
    /// curve x / (1 + x⁴)^¼ of x = N / (cores × (1 + W/C)), which reaches 95% of its plateau only
    /// at about 1.45 times the formula's N. The search follows it there as a dense grid does.
    @Test(arguments: [(4000.0, 8000.0), (1000.0, 15000.0)]) func aSmoothKneePastTheFormulaIsFound(
        _ shape: (cpu: Double, wait: Double)
    ) {
        let prediction = 2 * (1 + shape.wait / shape.cpu)
        var state: UInt64 = 3
        func curve(_ size: Int) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x = Double(size) / prediction
            return x / pow(1 + pow(x, 4), 0.25) * (1 + 0.01 * (Double(state >> 11) / Double(1 << 53) - 0.5))
        }
        let search = SizeSearch(prediction: prediction, cores: 2, tolerance: 0.05, repetitions: 3)
        let samples = search.simulate(curve)
        // The grid, dense over 1...4P, three repetitions: the reference knee.
        let dense = (1...Int(4 * prediction)).map { size in
            CurvePoint(size: size, samples: (0..<3).map { _ in curve(size) })
        }
        let reference = Knee.find(dense, tolerance: 0.05)!.size
        let found = Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) }, tolerance: 0.05)!.size
        #expect(abs(found - reference) <= max(1, search.step(at: reference)), "knee \(found), dense grid \(reference)")
        #expect(Double(found) > 1.3 * prediction)
    }

    /// io on 2 cores without noise, worked by hand: the formula's 32 and its double 64 (flat
    /// against 32: no further up); the knee is then 32, the smallest size measured, so down the
    /// chain to 16; the knee 32 has 16 below it: bisect 24, 28, 30 (32 − 30 = 2 = one step at 32:
    /// resolved). Then 3 repetitions at the knee 32 (also the formula's and the peak, the
    /// smallest of the tie) and its neighbour 30: 6 sizes + 2 + 2 = 10 trials against the grid's
    /// 16 × 3 = 48, none below 16.
    @Test func ioWithoutNoiseIsWorkedByHand() {
        let search = SizeSearch(prediction: 32, cores: 2, tolerance: 0.05, repetitions: 3)
        #expect(search.chain == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512])
        let samples = search.simulate { Double(min($0, 32)) }
        #expect(samples.keys.sorted() == [16, 24, 28, 30, 32, 64])
        #expect(samples.mapValues(\.count).filter { $0.value == 3 }.keys.sorted() == [30, 32])
        #expect(samples.values.map(\.count).reduce(0, +) == 10)
        #expect(search.gridTrials == 48)
        #expect(search.maximumTrials >= 10)
    }

    /// The creep through the search, without noise: 44/s a queue up to 8, then
    /// 352 × (392/352)^(log₂(N/8) / 7), +1.55% a doubling to 392/s at 1024; the formula said
    /// 1024 (an HTTP client's C is tiny beside its W). From 1024 and 2048 (flat) the search walks
    /// down the chain to 4; the knee is 8 (`Knee.Basis.flattened`), the size below it 4: bisect
    /// 6, then 7 (one step at 8). The
    /// near-peak rule's knee was where the creep crosses 0.95 × 392 = 372.4, between 64 (368.6)
    /// and 128 (374.3).
    @Test func aSlowCreepIsSearchedToItsStart() throws {
        func curve(_ size: Int) -> Double {
            size <= 8 ? 44 * Double(size) : 352 * pow(392.0 / 352, log2(Double(size) / 8) / 7)
        }
        let search = SizeSearch(prediction: 1024, cores: 2, tolerance: 0.05, repetitions: 3)
        let samples = search.simulate(curve)
        #expect(samples.keys.sorted() == [4, 6, 7, 8, 16, 32, 64, 128, 256, 512, 1024, 2048])
        let knee = try #require(Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) }))
        #expect(knee.size == 8)
        #expect(knee.basis == .flattened)
        // Repeated where it is decided: the knee, below it, after it, the formula's N, the peak.
        #expect(samples.filter { $0.value.count == 3 }.keys.sorted() == [7, 8, 16, 1024, 2048])
    }

    /// The first decision is the formula's size and its double, one trial each; at the top of
    /// the sizes, its half.
    @Test func firstDecisionIsTheFormulasSizeAndItsDouble() {
        let search = SizeSearch(prediction: 32, cores: 2, tolerance: 0.05, repetitions: 3)
        #expect(search.next([:]) == [32: 1, 64: 1])
        let bounded = SizeSearch(prediction: 32, cores: 2, tolerance: 0.05, repetitions: 3, limit: 32)
        #expect(bounded.next([:]) == [32: 1, 16: 1])
        // Below the cores the formula is no start: a CPU-bound pool's knee is the cores.
        let cpu = SizeSearch(prediction: 0.5, cores: 4, tolerance: 0.05, repetitions: 3)
        #expect(cpu.next([:]) == [4: 1, 8: 1])
        // A CPU-bound task's W/C of 0.0003 makes N 2.0006 on 2 cores: the start is 2, not 3.
        let spin = SizeSearch(prediction: 2.0006, cores: 2, tolerance: 0.05, repetitions: 3)
        #expect(spin.next([:]) == [2: 1, 4: 1])
    }

    /// A formula far above the knee (a server under an interpreter lock): the search walks down
    /// the chain from it until the knee has a measured size below it, never measuring the
    /// small sizes the curve does not ask for.
    @Test func aFormulaAboveTheKneeIsWalkedDownFrom() {
        let search = SizeSearch(prediction: 40, cores: 2, tolerance: 0.05, repetitions: 1, thrifty: true)
        let samples = search.simulate { Double(min($0, 9)) }
        #expect(samples.keys.min() == 5)
        #expect(Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) })?.size == 9)
        #expect(samples.keys.sorted().prefix(3) == [5, 7, 8])
    }

    /// Still rising past the formula's size: the search doubles on (here to 128, then flat at 256).
    @Test func aCurveStillRisingAtTheReachIsFollowed() {
        let search = SizeSearch(prediction: 32, cores: 2, tolerance: 0.05, repetitions: 1)
        let samples = search.simulate { Double(min($0, 128)) }
        #expect(samples.keys.contains(256))
        #expect(Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) })!.size >= 122)
    }

    /// Within an explicit list the search only picks listed sizes and stops at neighbours.
    @Test func anExplicitListIsSearchedWithin() {
        let list = Array(stride(from: 4, through: 64, by: 4))
        let search = SizeSearch(prediction: 32, cores: 2, tolerance: 0.05, repetitions: 2, candidates: list)
        let samples = search.simulate { Double(min($0, 30)) }
        #expect(Set(samples.keys).isSubset(of: Set(list)))
        // 28 is 93% of the plateau at 30, under the 95% threshold: the knee is the next listed size.
        #expect(Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) })!.size == 32)
        #expect(search.gridTrials == list.count * 2)
        #expect(samples.values.map(\.count).reduce(0, +) < search.gridTrials)
    }

    /// The orders pool of the newcomers' report: pgbench peaks at 2 connections (11.7k tps; 4:
    /// 11.4k; 5: 10.9k; 64: 6.0k) and the rules' sizes are 5 (HikariCP on 2 cores) and 96
    /// (max_connections). The search starts at the formula's 5, the rule's size too, and walks
    /// down past it: a rule never bounds it from below. The knee is 2, with its neighbours measured, as the
    /// grid finds it; within an explicit 1…16 too. (When the search once began above the
    /// largest rule's size, the answer was 5, the rule confirming itself.)
    @Test func theRulesSizesNeverBoundTheSearchFromBelow() {
        func orders(_ size: Int) -> Double {
            let known: [Int: Double] = [1: 7200, 2: 11_700, 3: 11_600, 4: 11_400, 5: 10_900]
            return known[size] ?? max(6000, 10_900 - Double(size - 5) * 83)
        }
        let search = SizeSearch(prediction: 5.2, cores: 2, tolerance: 0.05, repetitions: 3, seeds: [5, 96])
        #expect(search.next([:]) == [5: 1, 10: 1])
        let samples = search.simulate(orders)
        #expect(Knee.find(samples.map { CurvePoint(size: $0.key, samples: $0.value) })?.size == 2)
        // 96, past the largest size (80 = 16 × the start 5), would be measured at 80, far past
        // the flat top: it is not.
        #expect(samples.keys.contains(1) && samples.keys.contains(5) && !samples.keys.contains(80))
        let listed = SizeSearch(
            prediction: 5.2, cores: 2, tolerance: 0.05, repetitions: 3, candidates: Array(1...16), seeds: [5, 196])
        let within = listed.simulate(orders)
        #expect(Knee.find(within.map { CurvePoint(size: $0.key, samples: $0.value) })?.size == 2)
        #expect(Set(within.keys).isSubset(of: Set(1...16)))
    }

    /// A size given up on (every trial invalid: a server that cannot start 64 threads) ends the
    /// walk up; the search goes down and bisects around it instead of stopping.
    @Test func aSizeGivenUpOnIsWalkedAround() {
        let search = SizeSearch(prediction: 32, cores: 2, tolerance: 0.05, repetitions: 1)
        #expect(search.next([32: [32]], exhausted: [64]) == [16: 1])
        #expect(search.next([32: [32], 16: [16]], exhausted: [64]) == [24: 1])
        // Down, it is passed: 8 given up on, the walk goes to 4.
        #expect(search.next([32: [32], 16: [32]], exhausted: [64, 8]) == [4: 1])
        // A middle given up on ends the bisection.
        #expect(search.next([32: [32], 16: [16]], exhausted: [64, 24]).isEmpty)
    }

    /// Nothing to measure once every decisive size has its repetitions.
    @Test func doneIsEmpty() {
        let search = SizeSearch(prediction: 2, cores: 2, tolerance: 0.05, repetitions: 2)
        let samples = search.simulate { Double(min($0, 2)) }
        #expect(search.next(samples).isEmpty)
        #expect(samples.keys.sorted() == [1, 2, 4])
    }
}

/// `SizeSearch.maximumTrials` bounds what the search asks for, on curves made to wander: the
/// bound the dry run's "at most" rests on.
@Suite struct SizeSearchBoundTests {
    /// Rising, flat, creeping, dipping and noisy curves (seeded), several predictions: the
    /// search never measures more sizes than `maximumSizes` nor more samples than `maximumTrials`.
    @Test(arguments: [1.0, 8, 32, 300, 4096]) func theSearchStaysWithinItsBound(_ prediction: Double) {
        for seed in UInt64(1)...30 {
            var state = seed
            func noise() -> Double {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 11) / Double(1 << 53) - 0.5
            }
            let knee = Double(1 << Int(seed % 12))
            let shapes: [(Int) -> Double] = [
                { Double($0) },
                { min(Double($0), knee) * (1 + 0.3 * noise()) },
                { min(Double($0), knee) * pow(1.04, log2(max(1, Double($0) / knee))) },
                { Double($0) <= knee ? Double($0) : knee * (1 + 0.2 * sin(Double($0))) },
            ]
            for (index, shape) in shapes.enumerated() {
                let searches = [
                    SizeSearch(prediction: prediction, cores: 2, tolerance: 0.05, repetitions: 3),
                    // A database's limit that is no power of two, the rules' sizes, a server's thrift.
                    SizeSearch(
                        prediction: prediction, cores: 2, tolerance: 0.05, repetitions: 3, seeds: [5, 146], limit: 146,
                        thrifty: true),
                    SizeSearch(
                        prediction: prediction, cores: 2, tolerance: 0.05, repetitions: 3,
                        candidates: [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233], seeds: [3, 200]),
                ]
                for search in searches {
                    let samples = search.simulate(shape)
                    #expect(
                        samples.count <= search.maximumSizes, "shape \(index) seed \(seed): \(samples.keys.sorted())")
                    #expect(
                        samples.values.map(\.count).reduce(0, +) <= search.maximumTrials, "shape \(index) seed \(seed)")
                    // The widest search (the dry run's bound for a task of unknown W/C) bounds each.
                    let widest = SizeSearch(
                        prediction: Double(SizeSelection.maximumSize), cores: 2, tolerance: 0.05, repetitions: 3,
                        candidates: search.candidates, seeds: search.seeds, limit: search.limit, thrifty: search.thrifty
                    )
                    #expect(search.maximumTrials <= widest.maximumTrials, "prediction \(prediction)")
                }
            }
        }
    }
}
