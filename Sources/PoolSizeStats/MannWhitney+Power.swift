extension MannWhitney {
    /// The smallest two-sided p-value the exact test can return for samples of `m` and `n`
    /// values: both extreme orderings (every a below every b, or above) have probability
    /// 1 / C(m + n, m) each, so p ≥ 2 / C(m + n, m) (Mann & Whitney 1947).
    ///
    /// With 3 repetitions against 3 that is 2/20 = 0.1: no result can reach p < 0.05, however
    /// large the difference, so a caller needing significance at α must pick another test when
    /// this exceeds α. From 50 values a side `test` uses the normal approximation, which has no
    /// such floor (0 is returned).
    package static func smallestPValue(_ m: Int, _ n: Int) -> Double {
        guard m > 0, n > 0 else { return 1 }
        if m >= 50 || n >= 50 { return 0 }
        // C(m + n, m) as a running product; Doubles hold C(98, 49) ≈ 2.5e28 comfortably.
        var orderings = 1.0
        for i in 1...m { orderings = orderings * Double(n + i) / Double(i) }
        return min(1, 2 / orderings)
    }
}
