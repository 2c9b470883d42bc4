import PoolSizeModel

/// A target made ready to run: the spec the plan records, what runs its trials, and what the
/// plan says of it.
package struct PreparedTarget {
    /// The workload as the plan records it.
    package var spec: WorkloadSpec
    /// What runs the trials: the plan's spec, a trace, a source on poolsize's pools, or a
    /// measurer of a pool outside them.
    package var run: RecordedSweep.Workload
    /// An HTTP server or database on this machine, whose CPU during a trial is the load under
    /// test rather than another program's.
    package var isLoopbackServer: Bool
    /// The task timeout of a task of unknown length (a command, a request, a statement), which
    /// bounds a dry run's "at most"; nil for a declared task.
    package var taskTimeoutSeconds: Double?
    /// What is sized, as the plan records it.
    package var target: SweepTarget = .inProcess
}
