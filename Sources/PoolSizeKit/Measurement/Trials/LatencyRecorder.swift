import Histogram
import PoolSizeModel

/// Latency percentiles through an HDR histogram (Gil Tene's HdrHistogram, via
/// HdrHistogram/hdrhistogram-swift): values recorded in nanoseconds with three significant
/// digits, so p99.9 of a few thousand tasks is exact to 0.1% without keeping every value sorted.
package enum LatencyRecorder {
    package static func histogram(_ nanoseconds: [UInt64]) -> Histogram<UInt64> {
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
        for value in nanoseconds { _ = histogram.record(max(value, 1)) }
        return histogram
    }

    /// p50, p90, p99, p99.9 and max in microseconds; zeros when there are no values.
    package static func percentiles(_ nanoseconds: [UInt64]) -> LatencyPercentiles {
        guard !nanoseconds.isEmpty else { return LatencyPercentiles() }
        let h = histogram(nanoseconds)
        func us(_ p: Double) -> Double { Double(h.valueAtPercentile(p)) / 1_000 }
        return LatencyPercentiles(
            p50: us(50), p90: us(90), p99: us(99), p999: us(99.9), max: Double(nanoseconds.max() ?? 0) / 1_000)
    }
}
