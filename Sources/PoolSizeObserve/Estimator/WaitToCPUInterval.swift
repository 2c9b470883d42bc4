import PoolSizeStats

/// How far W/C's two bounds may be off from sampling alone: W is thread time the blocked
/// samples put in IO (and ambiguous waits), C the schedstat CPU, both summed per batch of the
/// observation; each bound is a ratio of means over the batches, and its Student-t 95% limit
/// (delta method, `RatioOfMeans`) scales the bound. The bounds alone read as exact while the
/// known-IO figure moves from one observation to the next with the samples that land in IO:
/// this is the spread a reader should expect (docs/benchmarks/observe-spread.md checks it
/// against a target's own truth).
enum WaitToCPUInterval {
    /// The interval from the batches' tallies (a batch in which the pool only waited counts, with
    /// no CPU); nil with fewer than two batches or without CPU in any.
    static func of(_ batches: [PoolTally], range: ValueRange) -> ValueRange? {
        let used = batches.filter { $0.threadSeconds > 0 }
        guard used.count >= 2 else { return nil }
        let cpu = used.map(\.cpuSeconds)
        func seconds(_ kinds: [ShareKind]) -> [Double] {
            used.map { tally in
                let shares = tally.shares
                return kinds.reduce(0) { $0 + (shares[$1] ?? 0) } * tally.threadSeconds
            }
        }
        guard let low = RatioOfMeans(numerators: seconds([.blockedIO]), denominators: cpu),
            let high = RatioOfMeans(numerators: seconds([.blockedIO, .ambiguous]), denominators: cpu),
            let lowCI = low.confidenceInterval95, let highCI = high.confidenceInterval95
        else { return nil }
        // Relative half-widths, applied to the bounds the whole observation gives.
        let lower = low.ratio > 0 ? range.low * max(0, lowCI.lower / low.ratio) : 0
        let upper = high.ratio > 0 ? range.high * highCI.upper / high.ratio : range.high
        return ValueRange(low: lower, high: upper)
    }
}
