import PoolSizeModel

extension Recommendation {
    /// Changes a closed-loop answer's curve in place: the fixtures give the same answer with and
    /// without a USL fit.
    mutating func editCurve(_ edit: (inout ThroughputCurve) -> Void) {
        switch sizing {
        case var .knee(curve):
            edit(&curve)
            sizing = .knee(curve)
        case var .formula(curve):
            edit(&curve)
            sizing = .formula(curve)
        case .latencyObjective, .stability:
            preconditionFailure("the fixtures edit closed-loop answers only")
        }
    }
}
