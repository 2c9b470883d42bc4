import PoolSizeModel
import PoolSizeStats

/// The adaptive size search's decisions, as a pure function of the results so far: given the
/// throughput samples measured at each size, which sizes to measure next (and how many valid
/// samples each should then have), or nothing when the knee is resolved.
///
/// 1. **Bracket**: sizes 1, 2, 4, … (one trial each) past the formula's N and the core count,
///    doubling on while the largest size still beats the one before it by more than half the
///    tolerance (the curve still rises), up to 16 × that reach. Sizes measured anyway (`seeds`,
///    the rules of thumb's) are measured with the first sizes, and count as points of the curve,
///    but never replace the powers of two below them: a rule's size is no lower bound of the
///    knee. A `thrifty` search first measures the middle of a rising gap past the reach.
/// 2. **Bisect**: the knee (`Knee.find`, the rule the `Recommender` uses) lies between the
///    largest measured size below it and itself; measure the middle, one trial, until the two
///    are no more than one size step apart (`step(at:)`).
/// 3. **Repeat where the decision is made**: the knee, its lower neighbour, the formula's N,
///    the peak, every smaller size whose mean is close enough to the peak that the knee rule
///    might pick it and, for a knee where a slow creep starts (`Knee.Basis.flattened`), twice
///    the knee get the full repetitions; every other size keeps one trial.
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
    /// Sizes measured whatever the search decides (a server sweep's rules of thumb), in the
    /// first batch, beside the powers of two.
    package let seeds: [Int]
    /// The largest size any trial can measure validly (a server's driver keeps that many
    /// requests in flight); nil: no bound but `SizeSelection.maximumSize`.
    package let limit: Int?
    /// Each trial is costly (a server restarted and loaded for seconds): the knee is resolved
    /// to 1/8 of its size rather than 1/16, and past the formula's N the bracket measures the
    /// middle of a rising gap before it doubles, stopping when the curve is flat from there.
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
    /// The bracket must pass this size before it may stop.
    var reach: Int { max(cores, min(SizeSelection.maximumSize, Int(saturating: prediction.rounded(.up)))) }

    /// The candidate closest to `size` from above (the largest when none is), or `size` within bounds.
    func snap(_ size: Int) -> Int {
        guard let candidates else { return min(max(size, 1), upper) }
        return candidates.first { $0 >= size } ?? candidates.last ?? 1
    }

    /// The powers of two the bracket doubles along: 1, 2, 4, … snapped to the candidates,
    /// ending at `upper`.
    var chain: [Int] {
        var sizes: [Int] = [], power = 1
        while power < upper {
            let size = snap(max(power, lower))
            if size > (sizes.last ?? 0) { sizes.append(size) }
            power *= 2
        }
        if sizes.last != upper { sizes.append(upper) }
        return sizes
    }

    /// The seeds as the search measures them, snapped to the candidates.
    var seedSizes: Set<Int> { Set(seeds.map(snap)) }

    /// The geometric bracket's sizes: the chain and the seeds, sorted.
    package var bracket: [Int] { seedSizes.union(chain).sorted() }

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
    package func next(_ samples: [Int: [Double]]) -> [Int: Int] {
        let measured = samples.filter { !$0.value.isEmpty }
        func mean(_ size: Int) -> Double { measured[size].map { $0.reduce(0, +) / Double($0.count) } ?? 0 }
        // 1. The bracket: every power below the reach and every seed at once, then one
        // doubling at a time along the chain (a seed between two powers is a point of the
        // curve, not a step of the doubling, whose rule compares sizes a factor 2 apart).
        let opening = bracket.filter { ($0 <= reach || seedSizes.contains($0)) && measured[$0] == nil }
        if !opening.isEmpty { return Dictionary(uniqueKeysWithValues: opening.map { ($0, 1) }) }
        var previous: Int?
        for size in chain {
            if measured[size] == nil { return [size: 1] }
            if size >= reach, let previous, mean(size) <= (1 + tolerance / 2) * mean(previous) { break }
            if thrifty, size > reach, let previous, !resolved(previous, size) {
                let middle = middle(previous, size)
                guard measured[middle] != nil else { return [middle: 1] }
                if mean(size) <= (1 + tolerance / 2) * mean(middle) { break }
            }
            previous = size
        }
        let points = measured.map { CurvePoint(size: $0.key, samples: $0.value) }
        guard let knee = Knee.find(points, tolerance: tolerance) else { return [:] }
        // 2. Bisection between the knee and the largest measured size below it.
        let below = measured.keys.filter { $0 < knee.size }.max()
        // The size budget keeps `maximumTrials` a bound even if repetitions move the knee.
        if let below, !resolved(below, knee.size), measured.count < bracket.count + bisectionDepth {
            return [middle(below, knee.size): 1]
        }
        // 3. Repetitions where the decision is made.
        let floor = (1 - 2 * tolerance) * knee.peakThroughput
        var decisive: Set<Int> = [
            knee.size, knee.peakSize, snap(min(SizeSelection.maximumSize, Int(saturating: prediction.rounded()))),
        ]
        if let below { decisive.insert(below) }
        // A knee where a slow creep starts is decided by what doubling it buys: measure twice
        // the knee (within the size budget), or the curve's sparse far points would decide.
        if knee.basis == .flattened {
            let doubled = snap(min(SizeSelection.maximumSize, 2 * knee.size))
            if measured[doubled] != nil || measured.count < bracket.count + bisectionDepth { decisive.insert(doubled) }
        }
        for size in measured.keys where size < knee.size && mean(size) >= floor { decisive.insert(size) }
        var wanted: [Int: Int] = [:]
        for size in decisive where (measured[size]?.count ?? 0) < repetitions { wanted[size] = repetitions }
        return wanted
    }

    /// Measured trials the exhaustive grid runs per combination: the `auto` grid around the
    /// formula's N, or every candidate.
    package var gridTrials: Int {
        (candidates ?? SizeGrid.auto(prediction: prediction, cores: cores)).count * repetitions
    }

    /// The most sizes the search can measure per combination: every bracket size, the
    /// bisection and the doubling of a flattened knee while fewer than `bracket.count +
    /// bisectionDepth` sizes are measured, the formula's N, which the repetitions may add
    /// once that budget is spent, and a thrifty bracket's middles.
    package var maximumSizes: Int {
        bracket.count + bisectionDepth + 1 + (thrifty ? bracket.filter { $0 > reach }.count : 0)
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
