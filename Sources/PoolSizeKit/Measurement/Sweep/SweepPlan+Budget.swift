import PoolSizeModel

extension SweepPlan {
    /// The shortest trial a budget may choose: below it a trial's window holds too few tasks
    /// of a short workload for a stable mean (`TrialSettings.forTasks` lengthens it further
    /// for long tasks).
    package static let minimumBudgetTrialMilliseconds = 100

    /// This plan made to fit `seconds` by the time model, searching adaptively: the most
    /// repetitions (up to the plan's) whose trials can stay at least half their length, each with
    /// the longest trial that fits; failing that one repetition and the longest trial down to
    /// `minimumBudgetTrialMilliseconds`. Throws when even that does not fit, naming the minimum.
    package func fitting(budgetSeconds seconds: Double) throws(PoolSizeError) -> SweepPlan {
        let full = trialMilliseconds ?? spec.trialMilliseconds
        let shortest = min(full, Self.minimumBudgetTrialMilliseconds)
        func variant(_ repetitions: Int, _ milliseconds: Int) -> SweepPlan {
            var plan = self
            plan.search = .adaptive
            plan.repetitions = repetitions
            plan.trialMilliseconds = milliseconds
            return plan
        }
        /// Trial lengths from `full` down to `floor`, in steps of a tenth of `full`.
        func lengths(downTo floor: Int) -> [Int] {
            let step = max(1, full / 10)
            var all = Array(stride(from: full, through: floor, by: -step))
            if all.last != floor { all.append(floor) }
            return all
        }
        for count in stride(from: repetitions, through: 1, by: -1) {
            let floor = count == 1 ? shortest : max(shortest, full / 2)
            for milliseconds in lengths(downTo: floor) where variant(count, milliseconds).estimate.seconds <= seconds {
                return variant(count, milliseconds)
            }
        }
        let minimum = variant(1, shortest).estimate.seconds
        throw .invalidParameter(
            .budgetSeconds,
            message:
                "\(UnitFormat.number(seconds))s cannot hold even the shortest sweep of this workload (adaptive search, 1 repetition, \(shortest) ms trials: about \(UnitFormat.estimate(minimum))); give at least \(Int(minimum.rounded(.up)))s"
        )
    }
}
