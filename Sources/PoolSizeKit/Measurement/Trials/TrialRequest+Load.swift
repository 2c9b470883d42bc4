import PoolSizeModel

extension TrialRequest {
    /// How a trial is driven, each loop with what it needs: the closed loop's length, depth and
    /// drain (`TrialSettings`), or an open loop's rate, spacing, phases and drain (`OpenLoopTrial`).
    package enum Loop: Sendable, Equatable {
        /// Every queue kept busy, a finished task making room for the next.
        case closed(TrialSettings)
        /// Tasks arriving at a set rate whatever the pool is doing.
        case open(OpenLoopTrial)

        /// Runs the trial on `pool` with `workload`, on `runner`'s clocks, `watch` told of its window.
        func run(
            pool: any WorkerPool, workload: any Workload, seed: UInt64, runner: TrialRunner,
            watch: any TrialWindowWatch = NoWindowWatch()
        ) throws(PoolSizeError) -> TrialMeasurement {
            switch self {
            case let .closed(settings):
                return try runner.run(pool: pool, workload: workload, settings: settings, watch: watch)
            case let .open(trial):
                // The arrival times draw from a stream of their own, apart from the tasks' jitter.
                return try OpenLoopRunner(clocks: runner.clocks).run(
                    pool: pool, workload: workload, trial: trial, seed: ArrivalSchedule.seed(forTrial: seed),
                    watch: watch)
            }
        }
    }
}
