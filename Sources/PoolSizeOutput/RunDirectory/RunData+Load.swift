import PoolSizeAnalysis
import PoolSizeModel

extension RunData {
    /// The load the run's trials had, decided once for every view: the plan's (machine.json),
    /// its rates those the trials carry, so every rate shown was measured. A run directory of
    /// trials alone (its machine.json deleted) says it by its trials' rates.
    package var load: Load {
        if let plan { return plan.load.measured(by: records) }
        return SLOSizer.plan(records: records, recorded: nil, recommendation: recommendation?.best).map(Load.open)
            ?? .closed
    }
}
