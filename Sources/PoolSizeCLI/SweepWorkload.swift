import PoolSize
import PoolSizeModel

/// The sweep's workload as its flags resolved it: the spec the plan records and what runs it.
struct SweepWorkload {
    var spec: WorkloadSpec
    var run: RecordedSweep.Workload
    /// An `--http` server on this machine, whose CPU use during a trial is the load under test.
    var isLoopbackServer: Bool
    /// `--task-timeout` for a command or a request (a task of unknown length), which bounds the
    /// dry run's "at most"; nil for a declared task.
    var taskTimeoutSeconds: Double? = nil
    /// What is sized: pools in this process, or the server `--server` starts.
    var target: SweepTarget = .inProcess
}
