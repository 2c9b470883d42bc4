import PoolSizeModel

/// The sizes, repetitions and retries of a sweep, as `SweepTrialOptions` resolved them.
struct SweepTrials {
    var sizes: SizeSelection
    var search: SearchMode
    var repetitions: Int
    var warmup: Int
    var busyRetries: Int
    /// `--budget`, which fits the plan to this many seconds.
    var budgetSeconds: Double?
}
