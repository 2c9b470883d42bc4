import PoolSizeModel
import PoolSizeStats

/// The adaptive size search's decisions, as a pure function of the results so far: given the
/// throughput samples measured at each size, which sizes to measure next (and how many valid
/// samples each should then have), or nothing when the knee is resolved.
///
/// 1. **Start where the formula points**: its N (at least the core count: `start`) and the next
///    size of the geometric chain through it (start × 2, × 4, … up, start / 2, / 4, … down to 1),
///    one trial each. Small sizes are the slowest trials (the fewest completions a second), so
///    the search goes there only when the curve asks for it.
/// 2. **Up**: double along the chain while the largest size still beats the one before it by
///    more than half the tolerance (the curve still rises), up to 16 × the start. A `thrifty`
///    search first measures the middle of a rising gap, stopping when the curve is flat from there.
/// 3. **Down**: halve along the chain while the knee (`Knee.find`, the rule the `Recommender`
///    uses) is the smallest size measured: the knee is placed only with a size below it.
/// 4. **Bisect**: the knee lies between the largest measured size below it and itself; measure
///    the middle, one trial, until the two are no more than one size step apart (`step(at:)`).
/// 5. **The rules' sizes** (`seeds`, a server's or a connection pool's rules of thumb) that lie
///    within the measured sizes get one trial each, for the report's comparison; one outside
///    them is not measured, the curve already showing what it gives (rising below, flat above).
/// 6. **Repeat where the decision is made**: the knee, its lower neighbour, the start, the
///    peak, every smaller size whose mean is close enough to the peak that the knee rule might
///    pick it and, for a knee where a slow creep starts (`Knee.Basis.flattened`), twice the knee
///    get the full repetitions; every other size keeps one trial.
///
/// Being stateless makes a resumed search replay the same decisions from the rows it has.
package struct SizeSearch: Sendable, Equatable {
    /// The formula's N from the low-load W/C.
    package let prediction: Double
    /// Cores sized for: the knee of a CPU-bound curve.
    package let cores: Int
    /// The knee's tolerance (share of the peak).
    package let tolerance: Double
    /// Valid samples each decisive size gets.
    package let repetitions: Int
    /// The sizes the search may choose from, sorted (an explicit `--sizes`); nil for any size
    /// from 1 to `SizeSelection.maximumSize`.
    package let candidates: [Int]?
    /// Sizes measured once when they lie within the sizes the search measured (the rules of
    /// thumb's), for the report.
    package let seeds: [Int]
    /// The largest size any trial can measure validly (a server's driver keeps that many
    /// requests in flight); nil: no bound but `SizeSelection.maximumSize`.
    package let limit: Int?
    /// Each trial is costly (a server restarted and loaded for seconds): the knee is resolved
    /// to 1/8 of its size rather than 1/16, and going up the search measures the middle of a
    /// rising gap before it doubles, stopping when the curve is flat from there.
    package let thrifty: Bool

    /// A search; `candidates` restricts it to an explicit list or range, `limit` bounds it.
    package init(
        prediction: Double, cores: Int, tolerance: Double, repetitions: Int, candidates: [Int]? = nil,
        seeds: [Int] = [], limit: Int? = nil, thrifty: Bool = false
    ) {
        self.prediction = prediction.isFinite ? max(1, prediction) : 1
        self.cores = max(1, cores)
        self.tolerance = tolerance
        self.repetitions = max(1, repetitions)
        self.candidates = candidates.map { Array(Set($0)).sorted() }
        self.seeds = Array(Set(seeds.filter { $0 >= 1 })).sorted()
        self.limit = limit.map { max(1, $0) }
        self.thrifty = thrifty
    }

    /// Smallest size the search may measure.
    var lower: Int { candidates?.first ?? 1 }
    /// Largest size the search may measure: the list's end, or 16 × the larger of the formula's
    /// N and the cores (a knee further out than that is no knee of this workload).
    package var upper: Int {
        if let candidates { return candidates.last ?? 1 }
        return min(limit ?? SizeSelection.maximumSize, SizeSelection.maximumSize, 16 * reach)
    }
    /// The formula's N to the nearest size (a W/C of 0.0003 makes 2 cores' N 2.0006, not 3), at
    /// least the cores: the size the search starts from.
    var reach: Int { max(cores, min(SizeSelection.maximumSize, Int(saturating: prediction.rounded()))) }

    /// The first size measured: `reach` within the bounds (snapped to the candidates).
    package var start: Int { snap(min(max(reach, lower), upper)) }

    /// The candidate closest to `size` from above (the largest when none is), or `size` within bounds.
    func snap(_ size: Int) -> Int {
        guard let candidates else { return min(max(size, 1), upper) }
        return candidates.first { $0 >= size } ?? candidates.last ?? 1
    }

    /// The candidate closest to `size` from below (the smallest when none is).
    func snapDown(_ size: Int) -> Int {
        guard let candidates else { return min(max(size, 1), upper) }
        return candidates.last { $0 <= size } ?? candidates.first ?? 1
    }

    /// The geometric chain the search walks: `start` doubled up to `upper` and halved down to
    /// the smallest size, snapped to the candidates, sorted.
    package var chain: [Int] {
        var sizes: Set<Int> = [start]
        var size = start
        while size < upper {
            size = min(upper, size * 2)
            sizes.insert(snap(size))
        }
        size = start
        while size > lower {
            size = max(lower, size / 2)
            sizes.insert(snapDown(size))
        }
        return sizes.sorted()
    }

    /// The seeds as the search measures them, snapped to the candidates.
    var seedSizes: Set<Int> { Set(seeds.map(snap)) }

    /// The knee's resolution at `size`: the auto grid's neighbour spacing there (about 1/16 of
    /// the size, at least 1; 1/8 when `thrifty`). With candidates, only neighbouring candidates are resolved.
    package func step(at size: Int) -> Int {
        candidates == nil ? max(1, Int((Double(size) / (thrifty ? 8 : 16)).rounded())) : 0
    }

    /// Whether `low` and `high` (low < high) pin the knee: no candidate lies between them, or
    /// they are at most one step apart.
    func resolved(_ low: Int, _ high: Int) -> Bool {
        if let candidates { return !candidates.contains { $0 > low && $0 < high } }
        return high - low <= step(at: high)
    }

    /// The middle between `low` and `high`: the median candidate strictly between them.
    func middle(_ low: Int, _ high: Int) -> Int {
        guard let candidates else { return (low + high) / 2 }
        let between = candidates.filter { $0 > low && $0 < high }
        return between[between.count / 2]
    }

    /// What to measure next: size → valid samples it should have once measured. Empty when
    /// the search is done. `samples` holds the valid throughputs measured so far, by size.
    /// `exhausted` holds sizes the caller gave up on (every trial invalid): the walk stops going
    /// up at one, goes down past one, and bisection does not ask for one.
    package func next(_ samples: [Int: [Double]], exhausted: Set<Int> = []) -> [Int: Int] {
        let measured = samples.filter { !$0.value.isEmpty }
        func mean(_ size: Int) -> Double { measured[size].map { $0.reduce(0, +) / Double($0.count) } ?? 0 }
        let unusable = exhausted.subtracting(measured.keys)
        // Up, a size given up on ends the walk (larger ones would fail alike); down, it is passed.
        let up = self.chain.filter { $0 >= start }
        let chain = self.chain.filter { !unusable.contains($0) }
        // 1. The start and its neighbour up the chain (down, when the start is the largest).
        if measured[start] == nil, !unusable.contains(start) {
            var first = [start: 1]
            if let neighbour = up.dropFirst().first ?? chain.last(where: { $0 < start }) { first[neighbour] = 1 }
            return first
        }
        // Walking and bisecting stop once `sizeBudget` sizes are measured, which keeps
        // `maximumTrials` a bound even if repetitions move the knee back and forth.
        let open = measured.count < sizeBudget
        // 2. Up the chain while the curve rises.
        var previous: Int?
        for size in up where open {
            if unusable.contains(size) { break }
            if measured[size] == nil { return [size: 1] }
            if let previous, mean(size) <= (1 + tolerance / 2) * mean(previous) { break }
            if thrifty, let previous, !resolved(previous, size) {
                let middle = middle(previous, size)
                guard measured[middle] != nil || unusable.contains(middle) else { return [middle: 1] }
                if mean(size) <= (1 + tolerance / 2) * mean(middle) { break }
            }
            previous = size
        }
        let points = measured.map { CurvePoint(size: $0.key, samples: $0.value) }
        guard let knee = Knee.find(points, tolerance: tolerance), let smallest = measured.keys.min(),
            let largest = measured.keys.max()
        else { return [:] }
        // 3. Down the chain while nothing measured lies below the knee.
        if open, knee.size == smallest, let lower = chain.last(where: { $0 < smallest }) { return [lower: 1] }
        // 4. Bisection between the knee and the largest measured size below it.
        let below = measured.keys.filter { $0 < knee.size }.max()
        if let below, !resolved(below, knee.size), open, !unusable.contains(middle(below, knee.size)) {
            return [middle(below, knee.size): 1]
        }
        // 5. The rules' sizes within the measured ones, once each.
        let rules = seedSizes.filter { $0 > smallest && $0 < largest && measured[$0] == nil && !unusable.contains($0) }
        if !rules.isEmpty { return Dictionary(uniqueKeysWithValues: rules.map { ($0, 1) }) }
        // 6. Repetitions where the decision is made.
        let floor = (1 - 2 * tolerance) * knee.peakThroughput
        var decisive: Set<Int> = [knee.size, knee.peakSize, start]
        if let below { decisive.insert(below) }
        // A knee where a slow creep starts is decided by what doubling it buys: measure twice
        // the knee (within the size budget), or the curve's sparse far points would decide.
        if knee.basis == .flattened {
            let doubled = snap(min(SizeSelection.maximumSize, 2 * knee.size))
            if measured[doubled] != nil || open { decisive.insert(doubled) }
        }
        for size in measured.keys where size < knee.size && mean(size) >= floor { decisive.insert(size) }
        var wanted: [Int: Int] = [:]
        for size in decisive.subtracting(unusable) where (measured[size]?.count ?? 0) < repetitions {
            wanted[size] = repetitions
        }
        return wanted
    }

    /// Measured trials the exhaustive grid runs per combination: the `auto` grid around the
    /// formula's N, or every candidate.
    package var gridTrials: Int {
        (candidates ?? SizeGrid.auto(prediction: prediction, cores: cores)).count * repetitions
    }

    /// Sizes the walk, its middles, the bisection and the doubling of a flattened knee may
    /// bring the search to: the longest chain any start can have (`bisectionDepth` + 1) and a
    /// whole bisection. It depends on `upper` alone, so the widest search bounds every other.
    var sizeBudget: Int { 2 * bisectionDepth + 1 }

    /// The most sizes the search can measure per combination: `sizeBudget`, then the rules' sizes.
    package var maximumSizes: Int {
        sizeBudget + seedSizes.count
    }

    /// The most valid trials the search can ask for per combination: `maximumSizes` at the
    /// full repetitions.
    package var maximumTrials: Int {
        maximumSizes * repetitions
    }

    /// Bisection steps allowed: enough to halve the whole range down to one size.
    var bisectionDepth: Int { Int.bitWidth - max(2, upper).leadingZeroBitCount }

    /// Runs the search against `curve` (size → one throughput sample, called once per trial)
    /// until it is done; returns the samples it gathered. What the dry run expects, and what
    /// tests compare with the grid.
    package func simulate(_ curve: (Int) -> Double) -> [Int: [Double]] {
        var samples: [Int: [Double]] = [:]
        for _ in 0..<10_000 {
            let wanted = next(samples)
            if wanted.isEmpty { break }
            for (size, count) in wanted.sorted(by: { $0.key < $1.key }) {
                while (samples[size]?.count ?? 0) < count { samples[size, default: []].append(curve(size)) }
            }
        }
        return samples
    }
}
