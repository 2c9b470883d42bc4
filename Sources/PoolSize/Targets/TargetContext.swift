import PoolSizeModel

/// What a target's checks need from the rest of the plan: the sizes (a server's driver keeps
/// more requests in flight than the largest, a database allows so many connections), the cores
/// the rules of thumb size for, the load, and the plan of a run being resumed.
package struct TargetContext: Sendable {
    /// The trial length asked for; each target has its own default.
    package var trialMilliseconds: Int?
    /// The sizes asked for, nil for the default.
    package var sizes: SizeSelection?
    /// The setting the sizes came from, as an error about them names it.
    package var sizesParameter: PoolSizeError.Parameter = .sizes
    /// The cores the sweep sizes for.
    package var cores: Int
    /// The load the trials offer.
    package var load: Load = .closed
    /// The plan of the run a resume continues, whose recorded limits a sweep of the same
    /// server keeps.
    package var resumed: SweepPlan?

    /// The context of a plan with `cores`, other fields at their defaults.
    package init(cores: Int) {
        self.cores = cores
    }

    /// The listed sizes, empty for `auto` and the default.
    package var listedSizes: [Int] {
        if case let .explicit(list)? = sizes { return list }
        return []
    }
}
