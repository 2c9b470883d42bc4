import PoolSizeModel

extension RunDirectory {
    /// The pool sizes this run measured, ascending: what a later sweep measures again so that
    /// two runs compare size for size (an adaptive search picks its sizes from what it measures,
    /// so two searches rarely pick the same ones).
    package func measuredSizes() throws(PoolSizeError) -> [Int] {
        let sizes = Set(try load().records.map(\.poolSize)).sorted()
        guard !sizes.isEmpty else {
            throw .invalidInput(
                path: url(.trials).path, message: "holds no trial, so it names no size to measure again")
        }
        // The bounds `sizes` has: a trials.csv from elsewhere (or edited) may hold any size.
        if let refusal = sizes.lazy.compactMap(SizeSelection.refusal).first {
            throw .invalidParameter(
                .sizesFrom,
                message:
                    "\(refusal) (\(url(.trials).path) measured it); pass a run measured at sizes 1 to \(SizeSelection.maximumSize), or list the sizes with \(PoolSizeError.Parameter.sizes.mention)"
            )
        }
        return sizes
    }
}
