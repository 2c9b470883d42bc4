import PoolSizeModel

extension Combination {
    /// The pool, tier and primitive as the first three cells of a table's row, under the
    /// `pool | qos | primitive` header every per-combination table opens with.
    var cells: [String] { [pool.rawValue, qos.rawValue, primitive.rawValue] }
}
