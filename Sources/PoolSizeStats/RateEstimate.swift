/// A rate (events per second) estimated from events counted in consecutive bins of equal length,
/// and how well it is known: the relative half-width of its confidence interval.
///
/// The bins are grouped into equal consecutive batches and the interval is the batch means' with
/// the long-run variance of the batch counts (Newey and West, "A simple, positive semi-definite,
/// heteroskedasticity and autocorrelation consistent covariance matrix", Econometrica 55(3),
/// 1987: Bartlett weights over ⌊√batches⌋ lags), not their plain variance. Completions of a
/// closed loop are regular: a batch that ends just after a completion holds one more and its
/// neighbour one fewer, so neighbouring counts are negatively correlated and the plain variance
/// would call a steady rate noisy; a slow drift correlates them positively and widens the
/// interval. The first and second halves of the batches are also compared, so that a rate still
/// settling shows even when each half is steady.
package struct RateEstimate: Equatable, Sendable {
    /// Events per second over the batches used (whole batches from the first bin).
    package let eventsPerSecond: Double
    /// Events counted in those batches.
    package let events: Int
    /// Seconds the batches span.
    package let seconds: Double
    /// Half-width of the rate's interval at `confidence`, as a share of the rate.
    package let relativeHalfWidth: Double
    /// |second half's rate − first half's| as a share of the rate.
    package let halvesDifference: Double

    /// Batches the bins are grouped into (fewer when there are fewer bins).
    package static let batches = 30

    /// The estimate from `binCounts`, each over `binSeconds`; nil with fewer than 4 bins, no
    /// event, or a bin length that is not positive.
    package init?(binCounts: [Int], binSeconds: Double, confidence: Double = 0.95) {
        let batchCount = min(Self.batches, binCounts.count)
        guard batchCount >= 4, binSeconds > 0, binSeconds.isFinite else { return nil }
        let perBatch = binCounts.count / batchCount
        let counts = (0..<batchCount).map { batch in
            Double(binCounts[(batch * perBatch)..<((batch + 1) * perBatch)].reduce(0, +))
        }
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        let n = Double(batchCount)
        let mean = total / n
        let lags = Int(n.squareRoot())
        let variance = Self.longRunVariance(counts, mean: mean, lags: lags)
        let t = StudentT.criticalValue(confidence: confidence, degreesOfFreedom: batchCount - 1)
        events = Int(total)
        seconds = n * Double(perBatch) * binSeconds
        eventsPerSecond = total / seconds
        relativeHalfWidth = t * (variance / n).squareRoot() / mean
        let half = batchCount / 2
        let first = counts[..<half].reduce(0, +) / Double(half)
        let second = counts[(batchCount - half)...].reduce(0, +) / Double(half)
        halvesDifference = abs(second - first) / mean
    }

    /// The long-run variance of `values` around `mean`: the lag-0 autocovariance plus twice each
    /// lag's up to `lags`, weighted 1 − k/(lags + 1), never below 0.
    package static func longRunVariance(_ values: [Double], mean: Double, lags: Int) -> Double {
        let n = values.count
        guard n > 0 else { return 0 }
        func autocovariance(_ lag: Int) -> Double {
            guard lag < n else { return 0 }
            var sum = 0.0
            for i in lag..<n { sum += (values[i] - mean) * (values[i - lag] - mean) }
            return sum / Double(n)
        }
        var variance = autocovariance(0)
        if lags > 0 {
            for lag in 1...lags {
                variance += 2 * (1 - Double(lag) / Double(lags + 1)) * autocovariance(lag)
            }
        }
        return max(0, variance)
    }
}
