import PoolSizeModel

/// Receives results as they happen, so a long sweep never loses finished trials.
public protocol SweepObserver: AnyObject {
    /// The low-load phase starts: one worker runs tasks until W/C is known, for at most
    /// `maximumSeconds` beyond the task then in progress.
    func sweepWillMeasureLowLoad(maximumSeconds: Double)
    func sweepMeasuredLowLoad(_ estimate: LowLoadEstimate, sizes: [Int])
    /// Trial `index` of `total` in this batch of the sweep's order is about to run.
    func sweepWillRunTrial(_ index: Int, of total: Int, trial: PlannedTrial)
    func sweepFinishedTrial(_ record: TrialRecord) throws(PoolSizeError)
    /// A trial is being run again because other processes loaded the machine during it.
    func sweepRetryingBusyTrial(otherLoad: Double)
    /// `auto` sizes found no knee yet: these larger sizes are measured as well.
    func sweepExtendingSizes(_ sizes: [Int])
    /// An adaptive search finished after `trials` measured trials, where the grid runs `gridTrials`.
    func sweepFinishedSearch(trials: Int, gridTrials: Int)
}

extension SweepObserver {
    /// Ignored unless the observer implements it.
    public func sweepWillMeasureLowLoad(maximumSeconds: Double) {}
    /// Ignored unless the observer implements it.
    public func sweepWillRunTrial(_ index: Int, of total: Int, trial: PlannedTrial) {}
    /// Ignored unless the observer implements it.
    public func sweepRetryingBusyTrial(otherLoad: Double) {}
    /// Ignored unless the observer implements it.
    public func sweepExtendingSizes(_ sizes: [Int]) {}
    /// Ignored unless the observer implements it.
    public func sweepFinishedSearch(trials: Int, gridTrials: Int) {}
}
