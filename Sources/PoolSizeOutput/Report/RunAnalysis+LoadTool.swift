import PoolSizeModel

extension RunAnalysis {
    /// Whether the run measured W/C at low load, so that the formula exists: every run does but a
    /// load tool's alone (`SweepTarget.loadTool`), whose lowload.json holds no task. A run read
    /// without lowload.json keeps the formula its recommendation carries.
    package var hasWaitCPU: Bool { run.lowLoad?.isMeasured ?? true }

    /// Whether the run's trials measured the pool's CPU (utilization, W/C, C per task, threads):
    /// false for a load tool alone, which reports only its throughput, latency and errors.
    package var measuresTaskCPU: Bool { primary?.combination.pool.measuresTaskCPU ?? true }
}
