/// How a sweep chooses the pool sizes it measures.
package enum SearchMode: String, CaseIterable, Codable, Sendable {
    /// Every size of the grid (or of `--sizes`), every repetition: exhaustive.
    case grid
    /// A coarse geometric bracket of the knee, then bisection around it, with repetitions
    /// where the decision is made (`SizeSearch`).
    case adaptive

    /// One line for help texts.
    package var summary: String {
        switch self {
        case .grid: return "every size and repetition of the grid"
        case .adaptive: return "bracket the knee geometrically, then bisect until it is resolved to one size step"
        }
    }
}
