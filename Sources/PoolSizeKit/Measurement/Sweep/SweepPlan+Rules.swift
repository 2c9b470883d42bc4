import PoolSizeModel

extension SweepPlan {
    /// Sizes measured beside the plan's own so the report can say what each rule of thumb
    /// gives: a server sweep measures every rule's size on the plan's cores (their sizes
    /// are what its users would otherwise set); a sweep of poolsize's own pools, none.
    package var ruleSizes: [Int] {
        switch target {
        // The rules are for a server's threads; a load tool's concurrency is measured at the
        // sizes asked for.
        case .inProcess, .loadTool: return []
        case .server: return RuleOfThumb.sizes(cores: cores).filter { $0 <= SizeSelection.maximumSize }
        }
    }
}
