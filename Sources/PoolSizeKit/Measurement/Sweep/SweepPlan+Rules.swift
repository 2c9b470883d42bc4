import PoolSizeModel

extension SweepPlan {
    /// Sizes measured beside the plan's own so the report can say what each rule of thumb
    /// gives: the rules of the pool the target sizes (`SweepTarget.ruleSet`: a server's
    /// threads, a database's connections), within the sizes a trial may have; none for
    /// poolsize's own pools.
    package var ruleSizes: [Int] {
        let largest = min(target.sizeLimit ?? SizeSelection.maximumSize, SizeSelection.maximumSize)
        return (target.ruleSet(cores: cores)?.sizes ?? []).filter { $0 <= largest }
    }
}
