import PoolSizeModel

extension RunComparator {
    /// The comparison of two runs of the same load: closed loops by throughput and latency per
    /// configuration, open loops by each size's verdict at each rate.
    /// - Throws: `PoolSizeError.incomparable` when the runs measured different workloads, on a
    ///   different number of cores, under different loads, or share no configuration.
    package static func compare(base: RunSamples, current: RunSamples, threshold: Double) throws(PoolSizeError)
        -> RunComparison
    {
        try checkComparable(base: base, current: current)
        switch (base.openLoop, current.openLoop) {
        case let (b?, c?): return compareOpenLoop(base: base, current: current, b: b, c: c, threshold: threshold)
        // `checkComparable` refused a closed loop against an open one.
        default: return compareClosedLoop(base: base, current: current, threshold: threshold)
        }
    }
}
