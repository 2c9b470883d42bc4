/// The `p`-th percentile of `values`, `p` in `[0, 100]`, by linear interpolation between the
/// closest ranks.
///
/// This is definition 7 of Hyndman & Fan, "Sample Quantiles in Statistical Packages" (The American
/// Statistician 50(4), 1996), the default of R's
/// `quantile` and of NumPy's `percentile`, so numbers in our reports match what a reader gets
/// from those tools: with the sorted sample `x[0…n−1]` and `h = (n − 1)·p/100`,
/// `P = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`.
///
/// Returns nil for an empty sample and for `p` outside `[0, 100]` (or NaN). Input order does not
/// matter. NaN values in `values` make the result unspecified (the caller's problem).
package func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty, p >= 0, p <= 100 else { return nil }
    return percentile(sorted: values.sorted(), p)
}

/// Type-7 percentile of an already sorted, non-empty sample.
func percentile(sorted x: [Double], _ p: Double) -> Double {
    let h = Double(x.count - 1) * p / 100
    let lower = Int(h.rounded(.down))
    let upper = min(lower + 1, x.count - 1)
    let fraction = h - Double(lower)
    // An exact rank returns that element itself (no 0·(∞ − x) = NaN when a neighbour is infinite).
    return fraction == 0 ? x[lower] : x[lower] + fraction * (x[upper] - x[lower])
}

/// Median of an already sorted, non-empty sample.
func median(sorted x: [Double]) -> Double { percentile(sorted: x, 50) }
