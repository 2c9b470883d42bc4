/// The outcome of a two-sided Mann–Whitney U test.
package struct MannWhitneyResult: Equatable, Sendable, Codable {
    /// U of the *first* sample: the number of pairs (aᵢ, bⱼ) with aᵢ > bⱼ, ties counting ½.
    /// 0 when every a is below every b; n₁·n₂ when every a is above.
    package let u: Double
    /// Normal-approximation z with tie and continuity corrections; positive when the first
    /// sample tends to be larger. Reported for every test, also when `pValue` is exact.
    package let z: Double
    /// Two-sided p-value (see `MannWhitney.test` for how it is computed).
    package let pValue: Double
}

/// Mann–Whitney U (Wilcoxon rank-sum) test: do two runs' repetitions come from the same
/// distribution? Rank-based, so one stalled repetition cannot fake or hide a regression the
/// way it moves a t-test (H. B. Mann and D. R. Whitney, Ann. Math. Statist. 18(1), 1947).
package enum MannWhitney {
    /// Two-sided test of `a` against `b`; nil when either is empty.
    ///
    /// p-value, following R's `wilcox.test`: exact when both samples have fewer than 50 values
    /// and there are no ties (the null distribution of U counted with Mann & Whitney's
    /// recurrence, p = min(1, 2·min(P(U ≤ u), P(U ≥ u)))); otherwise the normal approximation
    /// with mean n₁n₂/2, the tie-corrected variance n₁n₂/12·((N + 1) − Σ(t³ − t)/(N(N − 1))) and a
    /// continuity correction of ½ towards the mean (never past it).
    package static func test(_ a: [Double], _ b: [Double]) -> MannWhitneyResult? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        let (ranks, tieGroups) = averageRanks(a + b)
        let m = Double(a.count)
        let n = Double(b.count)
        let total = m + n
        let u = ranks[0..<a.count].reduce(0, +) - m * (m + 1) / 2

        let mean = m * n / 2
        let tieTerm = tieGroups.reduce(0) { $0 + ($1 * $1 * $1 - $1) } / (total * (total - 1))
        let variance = m * n / 12 * ((total + 1) - (total > 1 ? tieTerm : 0))
        let deviation = u - mean
        let corrected = max(abs(deviation) - 0.5, 0) * (deviation < 0 ? -1 : 1)
        let z = variance > 0 ? corrected / variance.squareRoot() : 0

        let pValue: Double
        if tieGroups.isEmpty, a.count < 50, b.count < 50 {
            let counts = exactDistribution(a.count, b.count)
            let all = counts.reduce(0, +)
            let k = Int(u)  // no ties: u is an integer
            let lower = counts[0...k].reduce(0, +) / all
            let upper = counts[k...].reduce(0, +) / all
            pValue = min(1, 2 * min(lower, upper))
        } else {
            pValue = min(1, 2 * SpecialFunctions.normalCDF(-abs(z)))
        }
        return MannWhitneyResult(u: u, z: z, pValue: pValue)
    }

    /// Ranks 1…N with ties given their average rank, and the sizes of the tie groups (> 1).
    static func averageRanks(_ values: [Double]) -> (ranks: [Double], tieGroups: [Double]) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var groups: [Double] = []
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end + 2) / 2  // mean of the 1-based ranks start+1 … end+1
            for position in start...end { ranks[order[position]] = rank }
            if end > start { groups.append(Double(end - start + 1)) }
            start = end + 1
        }
        return (ranks, groups)
    }

    /// Number of orderings of m a's and n b's giving each U = 0 … m·n. The largest value is
    /// either an a (beating all n b's) or a b: f(m, n, u) = f(m − 1, n, u − n) + f(m, n − 1, u)
    /// (Mann & Whitney 1947). Counts are Doubles: C(98, 49) ≈ 2.5e28 exceeds Int64.
    static func exactDistribution(_ m: Int, _ n: Int) -> [Double] {
        guard m > 0, n > 0 else { return [1] }
        // previous[j] = distribution for (i − 1) a's and j b's; with no a's, U = 0 always.
        var previous = [[Double]](repeating: [1], count: n + 1)
        for i in 1...m {
            var current: [[Double]] = [[1]]
            for j in 1...n {
                var f = [Double](repeating: 0, count: i * j + 1)
                for (u, count) in previous[j].enumerated() { f[u + j] += count }
                for (u, count) in current[j - 1].enumerated() { f[u] += count }
                current.append(f)
            }
            previous = current
        }
        return previous[n]
    }
}
