import PoolSizeModel

/// One trial as the sweep asks for it.
package struct TrialRequest: Sendable, Equatable {
    /// The pool kind, QoS tier and primitive of the trial.
    package var combination: Combination
    /// Queues (threads) in the pool.
    package var size: Int
    /// How the trial is driven: the closed loop's settings, or an open loop's arrivals
    /// (TrialRequest+Load).
    package var loop: Loop
    /// The low-load phase (one worker, seeds of its own) rather than a sweep trial.
    package var lowLoad: Bool
    /// Seed of the trial's random draws.
    package var seed: UInt64

    /// A request; `seed` makes the trial's draws reproducible (the arrival times' too).
    package init(combination: Combination, size: Int, loop: Loop, lowLoad: Bool = false, seed: UInt64) {
        self.combination = combination
        self.size = size
        self.loop = loop
        self.lowLoad = lowLoad
        self.seed = seed
    }
}
