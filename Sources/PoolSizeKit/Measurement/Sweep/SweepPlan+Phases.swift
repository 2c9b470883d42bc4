import PoolSizeModel

extension SweepPlan {
    /// Refuses a workload phase that starts at or after the trial's end: it would never run,
    /// and the sweep would measure only the phases before it without a word.
    package func checkPhases() throws(PoolSizeError) {
        let trial = trialMilliseconds ?? spec.trialMilliseconds
        guard let late = spec.phases.first(where: { $0.startMilliseconds >= trial }) else { return }
        throw .invalidParameter(
            .trialMilliseconds,
            message:
                "is \(trial) ms, but the workload's phase at \(late.startMilliseconds) ms starts after the trial's end, so it would never run; make the trials longer than \(late.startMilliseconds) ms"
        )
    }
}
