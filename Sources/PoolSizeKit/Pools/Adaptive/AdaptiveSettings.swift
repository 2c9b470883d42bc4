/// How an adaptive pool's controller decides: its bounds and the thresholds of each rule. The
/// defaults follow docs/guide/adaptive-pool.md; tests change them to script a case.
package struct AdaptiveSettings: Sendable, Equatable {
    /// Fewest queues the pool keeps.
    package var minimum: Int
    /// Most queues the pool may have.
    package var maximum: Int
    /// Cores the formula sizes for.
    package var cores: Int
    /// Mean length of a decision window. Each window's length is drawn from
    /// `intervalSeconds × [1 − intervalSpread, 1 + intervalSpread]`, so two pools of one process
    /// never decide in step and cannot lock into a cycle.
    package var intervalSeconds = 0.1
    /// Relative spread of the window lengths.
    package var intervalSpread = 0.25
    /// A probe changes the size by this share (and by at least one queue).
    package var probeStep = 0.10
    /// Each probe kept in a row doubles the next step that way, up to this share.
    package var maximumProbeStep = 0.25
    /// A probe `probeStep` up must buy more than this share of throughput to be kept; one down
    /// is kept when it costs no more (the .NET thread pool's rule: +10% threads, > 1.5%).
    package var probeGain = 0.015
    /// Windows measured at a probe's size (after one window of transition) before judging it.
    package var probeWindows = 3
    /// Down probes are also refused when they fall this far below the best throughput seen, so
    /// a series of small losses cannot walk the pool off the knee.
    package var bestTolerance = 0.03
    /// The CPUs are saturated (no growth) from this process CPU share of the cores…
    package var saturatedUtilization = 0.95
    /// …or from this share of the sampled tasks' wall time spent in a run queue.
    package var saturatedRunQueueShare = 0.2
    /// A growth that did not pay is believed only if the size it came from, measured again,
    /// still carries its throughput within this share; a larger drop means the workload changed.
    package var recheckDrop = 0.1
    /// The formula moves the size only when it is off by more than this share.
    package var formulaMargin = 0.1
    /// Shrinking toward the formula takes at most this share of the queues at a time…
    package var shrinkStep = 0.2
    /// …and only after this many windows in a row agreed that the pool is too large.
    package var shrinkWindows = 2
    /// Sampled tasks the W/C estimate needs before the formula is used.
    package var minimumSamples = 8
    /// A change of the per-task C, or of 1 + W/C, by this factor is a new workload: what was
    /// learnt about sizes is forgotten.
    package var regimeChangeFactor = 1.4
    /// Probes start this long after the first window (the formula acts first); each refused
    /// probe doubles the wait before the next one either way (16 s after the first refusal, then
    /// 32 s, up to `backoffCapSeconds`): at most a few direction changes a minute once settled.
    package var backoffSeconds = 8.0
    /// The longest wait between two probes the same way.
    package var backoffCapSeconds = 64.0

    /// Settings between `minimum` and `maximum` queues on `cores` cores; the rest default.
    package init(minimum: Int, maximum: Int, cores: Int) {
        self.minimum = max(1, minimum)
        self.maximum = max(self.minimum, maximum)
        self.cores = max(1, cores)
    }

    /// `size` within the bounds.
    package func clamp(_ size: Int) -> Int { Swift.min(maximum, Swift.max(minimum, size)) }
}
