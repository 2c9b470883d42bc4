#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PoolSizeModel
import PoolSizeStats

/// Sizes the loops of a calibration round so that one round takes about a target time: long
/// enough that the clock's resolution and one preemption do not matter, short enough that the
/// whole calibration stays within its budget on a slow or busy machine.
struct RoundPlanner: Sendable {
    let roundNanoseconds: UInt64

    /// Iterations for which `timed(n)` (which runs n iterations and returns the elapsed
    /// nanoseconds) takes about one round. Grows n eightfold until a run takes at least a
    /// quarter round, then scales linearly.
    func iterations(limit: Int = 1 << 26, _ timed: (Int) throws(PoolSizeError) -> UInt64) throws(PoolSizeError) -> Int {
        var n = 16
        while true {
            let elapsed = max(try timed(n), 1)
            if elapsed >= roundNanoseconds / 4 || n >= limit {
                let scaled = Double(n) * Double(roundNanoseconds) / Double(elapsed)
                return Swift.min(limit, Swift.max(1, Int(scaled)))
            }
            n = Swift.min(limit, n * 8)
        }
    }

    /// Monotonic time in nanoseconds.
    @inline(__always)
    static func now() -> UInt64 { SystemClocks.read(CLOCK_MONOTONIC) }

    /// Median of a round's individual samples.
    static func median(_ samples: [Double]) -> Double { percentile(samples, 50) ?? .nan }
}
