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
    /// The trial just measured stays valid, but was read with a choice the user should hear
    /// of (a load tool printed several throughputs and the last was taken): one line.
    func sweepNoted(_ note: String)
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
    /// Ignored unless the observer implements it.
    public func sweepNoted(_ note: String) {}
}
